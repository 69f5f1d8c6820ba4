/**
 * Account limits and messages: zod-free, so pages can import them without shipping zod
 * to the browser. Schemas live in auth.ts.
 */

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const PHONE_MAX = 30;

export const MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  usernameRequired: "Username is required",
  usernameLength: `Username must be ${USERNAME_MIN} to ${USERNAME_MAX} characters`,
  usernameChars: "Username may contain letters, numbers, underscores, dots and hyphens only",
  passwordRequired: "Password is required",
  passwordMin: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordMax: `Password must be at most ${PASSWORD_MAX} characters`,
  passwordMismatch: "Passwords do not match",
  codeRequired: "Verification code is required",
  codeFormat: `The verification code is ${CODE_LENGTH} digits`,
  codeInvalid: "Invalid or expired verification code",
  phoneInvalid: "Please enter a valid phone number",
  identifierRequired: "Email or username is required",
  invalidCredentials: "Invalid email/username or password",
  captchaRequired: "Please enter the characters shown in the image",
  captchaInvalid: "The characters did not match the image. Please try again.",
  emailNotVerified: "Please verify your email address before logging in.",
  tooMany: "Too many requests, please try again later",
  emailTaken: "This email is already registered",
  usernameTaken: "This username is already taken",
  authRequired: "Authentication required",
  authRequiredForAction: "Authentication required for this action.",
  userDeleted: "User account deleted",
  tokenExpired: "Token expired",
  // docs/product/storefront.md 4: a client logs out on a message containing "expired" or
  // "Unauthorized"; a revoked or unreadable token must end the session the same way
  refreshTokenRequired: "refreshToken is required",
  tokenRevoked: "Session expired: please log in again",
  tokenInvalid: "Unauthorized: invalid token",
  // docs/product/storefront.md 8 fallbacks
  sendCodeFailed: "Failed to send verification code. Please try again.",
  registrationFailed: "Registration failed. Please try again.",
  loginFailed: "Login failed. Please check your credentials and try again.",
  sendResetFailed: "Failed to send password reset code. Please try again.",
  resetFailed: "Failed to reset password. Please try again.",
  verifyFailed: "Failed to verify email. Please try again.",
  resendFailed: "Failed to resend verification code. Please try again.",
  profileLoginRequired: "You must be logged in to view your profile.",
  profileUpdateFailed: "Failed to update profile.",
  passwordChangeFailed: "Failed to change password.",
  googleFailed: "Google login failed.",
  avatarNotImage: "Please select an image file",
  avatarTooLarge: "Image size cannot exceed 5MB",
  avatarFailed: "Avatar upload failed, please try again",
  avatarOneFile: "Please select a single image file",
  avatarNotIssued: "The avatar must be an image uploaded to this site",
  currentPasswordWrong: "Current password is incorrect",
  // changing the e-mail proves the account holder (docs/accounts.md "Profile")
  currentPasswordRequired: "Current password is required to change your email",
  currentEmailCodeSent: (email: string) => `We sent a code to ${email}: enter it to change your email.`,
} as const;
