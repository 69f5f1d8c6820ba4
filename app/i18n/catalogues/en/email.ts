/** The e-mails the site sends by itself, in English (campaigns are the admin's own words). */
import type { Catalogue } from "../types";

export default {
  email: {
    signOff: "— {{site}}",
    priceDrop: {
      heading: "The price dropped",
      subject: "{{name}} is now {{to}}",
      intro: "{{name}} went down from {{from}} to {{to}} on {{site}}. You asked us to tell you when its price drops.",
      link: "See the product",
      footer: "To stop these e-mails for this product: {{url}}",
    },
    code: {
      codeLabel: "Code",
      expires: "The code expires in 10 minutes and works once.",
      registerSubject: "{{code}} is your {{site}} verification code",
      registerHeading: "Confirm your e-mail address",
      registerIntro: "Enter this code on the registration page to create your {{site}} account.",
      registerLink: "Enter the code and finish",
      verifySubject: "{{code}} is your {{site}} verification code",
      verifyHeading: "Verify your e-mail address",
      verifyIntro: "Enter this code to verify your e-mail address.",
      verifyLink: "Verify my e-mail",
      resetSubject: "{{code}} is your {{site}} password reset code",
      resetHeading: "Reset your password",
      resetIntro: "Enter this code to choose a new password. If you did not ask for it, you can ignore this e-mail.",
      resetLink: "Reset my password",
      changeSubject: "{{code}} is your {{site}} code to confirm your new e-mail",
      changeHeading: "Confirm your new e-mail address",
      changeIntro: "Enter this code on your profile page to start using this address for your account.",
      changeLink: "Open my profile",
      approveSubject: "{{code}} is your {{site}} code to change your e-mail address",
      approveHeading: "Is it you changing your e-mail address?",
      approveIntro:
        "Someone signed in to your account (hopefully you) asked to change its e-mail address to {{email}}. Enter this code on your profile page to allow it.",
      approveAdvice:
        "If it was not you, give this code to nobody: nothing changes without it. Someone may be signed in to your account: set a password on your profile page, which logs out every other device.",
    },
    notice: {
      subject: "Your {{site}} account",
      registeredHeading: "You already have an account",
      registeredText: "Someone (hopefully you) tried to register at {{site}} with this e-mail address, which already has an account.",
      registeredAdvice: "Log in instead, or reset your password if you have forgotten it.",
      changeHeading: "Someone tried to use your e-mail address",
      changeText:
        "Someone asked to move another {{site}} account to this e-mail address, which already has an account. Nothing was changed.",
      changeAdvice: "If it was you, log in to the account that has this address. If not, you can ignore this e-mail.",
      logIn: "Log in",
    },
  },
} satisfies Catalogue;
