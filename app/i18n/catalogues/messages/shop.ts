/**
 * The storefront's messages from services and schemas (the contract's words, kept by the
 * /api) with their other language, for the pages: each pair is one message.
 */
import type { MessagePair } from "../types";

/** The marketplaces as the messages name them. */
const PLATFORMS: Array<[en: string, zh: string]> = [
  ["Weidian", "微店"],
  ["Taobao", "淘宝"],
  ["Tmall", "天猫"],
  ["1688", "1688"],
];

export const SHOP_MESSAGES: MessagePair[] = [
  // search by photo (app/schemas/photo-search-rules.ts)
  { en: "Choose a photo to search with", "zh-CN": "请选择要搜索的照片" },
  { en: "The photo is larger than 10 MB", "zh-CN": "照片不能超过 10 MB" },
  { en: "The photo has more than 40 million pixels", "zh-CN": "照片像素不能超过 4000 万" },
  { en: "Send one photo at a time", "zh-CN": "每次只能上传一张照片" },
  { en: "This picture is not indexed yet: try again in a minute", "zh-CN": "这张图片尚未建立索引，请一分钟后再试" },
  // price alerts (app/services/price-alerts.server.ts)
  { en: "This product has no price to watch yet", "zh-CN": "该商品尚无价格，无法设置降价提醒" },
  {
    en: "This link is not valid: copy the whole link from the e-mail, or stop the alert on the product's page.",
    "zh-CN": "此链接无效：请复制邮件中的完整链接，或在商品页面取消提醒。",
  },
  // accounts (app/schemas/auth-rules.ts)
  { en: "Email is required", "zh-CN": "请输入邮箱" },
  { en: "Please enter a valid email address", "zh-CN": "请输入有效的邮箱地址" },
  { en: "Username is required", "zh-CN": "请输入用户名" },
  { en: "Username must be 3 to 30 characters", "zh-CN": "用户名长度须为 3 到 30 个字符" },
  {
    en: "Username may contain letters, numbers, underscores, dots and hyphens only",
    "zh-CN": "用户名只能包含字母、数字、下划线、点和连字符",
  },
  { en: "Password is required", "zh-CN": "请输入密码" },
  { en: "Password must be at least 6 characters", "zh-CN": "密码至少需要 6 个字符" },
  { en: "Password must be at most 128 characters", "zh-CN": "密码最多 128 个字符" },
  { en: "Passwords do not match", "zh-CN": "两次输入的密码不匹配" },
  { en: "Verification code is required", "zh-CN": "请输入验证码" },
  { en: "The verification code is 6 digits", "zh-CN": "验证码为 6 位数字" },
  { en: "Invalid or expired verification code", "zh-CN": "验证码无效或已过期" },
  { en: "Please enter a valid phone number", "zh-CN": "请输入有效的手机号" },
  { en: "Email or username is required", "zh-CN": "请输入邮箱或用户名" },
  { en: "Invalid email/username or password", "zh-CN": "邮箱/用户名或密码错误" },
  { en: "Please enter the characters shown in the image", "zh-CN": "请输入图中显示的字符" },
  { en: "The characters did not match the image. Please try again.", "zh-CN": "输入的字符与图片不符，请重试。" },
  { en: "Please verify your email address before logging in.", "zh-CN": "请先验证您的邮箱地址，然后再登录。" },
  { en: "Too many requests, please try again later", "zh-CN": "请求过于频繁，请稍后再试" },
  { en: "This email is already registered", "zh-CN": "此邮箱已被注册" },
  { en: "This username is already taken", "zh-CN": "此用户名已被占用" },
  { en: "Authentication required", "zh-CN": "需要登录" },
  { en: "Authentication required for this action.", "zh-CN": "此操作需要登录。" },
  { en: "User account deleted", "zh-CN": "用户账户已删除" },
  { en: "Token expired", "zh-CN": "令牌已过期" },
  { en: "Session expired: please log in again", "zh-CN": "会话已过期：请重新登录" },
  { en: "Failed to send verification code. Please try again.", "zh-CN": "发送验证码失败，请重试。" },
  { en: "Registration failed. Please try again.", "zh-CN": "注册失败，请重试。" },
  { en: "Login failed. Please check your credentials and try again.", "zh-CN": "登录失败，请检查您的账号和密码后重试。" },
  { en: "Failed to send password reset code. Please try again.", "zh-CN": "发送密码重置验证码失败，请重试。" },
  { en: "Failed to reset password. Please try again.", "zh-CN": "重置密码失败，请重试。" },
  { en: "Failed to verify email. Please try again.", "zh-CN": "验证邮箱失败，请重试。" },
  { en: "Failed to resend verification code. Please try again.", "zh-CN": "重新发送验证码失败，请重试。" },
  { en: "You must be logged in to view your profile.", "zh-CN": "您必须登录才能查看个人资料。" },
  { en: "Failed to update profile.", "zh-CN": "更新资料失败。" },
  { en: "Failed to change password.", "zh-CN": "修改密码失败。" },
  { en: "Google login failed.", "zh-CN": "Google 登录失败。" },
  { en: "Please select an image file", "zh-CN": "请选择图片文件" },
  { en: "Image size cannot exceed 5MB", "zh-CN": "图片大小不能超过 5MB" },
  { en: "Avatar upload failed, please try again", "zh-CN": "头像上传失败，请重试" },
  { en: "Please select a single image file", "zh-CN": "请只选择一个图片文件" },
  { en: "The avatar must be an image uploaded to this site", "zh-CN": "头像必须是上传到本站的图片" },
  { en: "Current password is incorrect", "zh-CN": "当前密码不正确" },
  { en: "Current password is required to change your email", "zh-CN": "更换邮箱需要输入当前密码" },
  {
    en: "We sent a code to {$email}: enter it to change your email.",
    "zh-CN": "我们已向 {$email} 发送验证码：输入后即可更换邮箱。",
  },

  // catalogue, search and collections (app/schemas/catalogue-messages.ts)
  { en: "Product not found", "zh-CN": "商品不存在" },
  { en: "Category not found", "zh-CN": "分类不存在" },
  { en: "Failed to search products.", "zh-CN": "搜索商品失败。" },
  { en: "Please enter a search term", "zh-CN": "请输入搜索词" },
  { en: "The search term is too long", "zh-CN": "搜索词太长" },
  { en: "Enter prices as numbers, the lowest first", "zh-CN": "请用数字输入价格，低价在前" },
  { en: "Product ID is required", "zh-CN": "缺少商品 ID" },
  { en: "Added to your collection", "zh-CN": "已加入收藏" },
  { en: "Removed from your collection", "zh-CN": "已从收藏中移除" },
  { en: "Image size cannot exceed 10MB", "zh-CN": "图片大小不能超过10MB" },
  { en: "The file is not a JPG, PNG, WEBP or GIF image", "zh-CN": "文件不是 JPG、PNG、WEBP 或 GIF 图片" },

  // QC photos (app/schemas/qc-rules.ts; those naming a file are read apart by the upload box)
  { en: "Maximum 10 files allowed", "zh-CN": "最多允许上传 10 个文件" },
  { en: "Invalid file type. Only JPG, PNG, WEBP allowed", "zh-CN": "文件类型无效，只允许 JPG、PNG、WEBP" },
  { en: "File too large. Maximum 10MB", "zh-CN": "文件太大，最大 10MB" },
  { en: "You have already uploaded this photo for this product", "zh-CN": "您已为此商品上传过这张图片" },
  {
    en: "This product has no option of that name: choose one of its options, or none",
    "zh-CN": "此商品没有这个名称的规格：请选择它的一个规格，或不选",
  },
  { en: "No valid files selected", "zh-CN": "没有选择有效的文件" },
  { en: "Product ID missing, cannot upload QC images", "zh-CN": "缺少商品 ID，无法上传 QC 图片" },
  { en: "Upload limit reached (10/10)", "zh-CN": "已达上传上限（10/10）" },
  { en: "Failed to upload QC images", "zh-CN": "QC 图片上传失败" },
  { en: "No QC photos available.", "zh-CN": "暂无 QC 图片。" },

  // pasted links, imports and dead links (app/schemas/marketplace-rules.ts)
  { en: "Paste a product link or id.", "zh-CN": "请粘贴商品链接或商品 ID。" },
  {
    en: "This is not a Weidian, Taobao, Tmall or 1688 product link or id.",
    "zh-CN": "这不是微店、淘宝、天猫或 1688 的商品链接或商品 ID。",
  },
  {
    en: "1688 QR links can only be opened in the 1688 app. Open it there and copy the product link instead.",
    "zh-CN": "1688 二维码链接只能在 1688 App 中打开。请在 App 中打开后改为复制商品链接。",
  },
  {
    en: "This short link could not be opened. Open it in your browser and paste the product link instead.",
    "zh-CN": "无法打开此短链接。请在浏览器中打开它，然后改为粘贴商品链接。",
  },
  ...PLATFORMS.flatMap(([en, zh]): MessagePair[] => [
    { en: `We could not find this item on ${en}. Check the link and try again.`, "zh-CN": `在${zh}上找不到此商品。请检查链接后重试。` },
    { en: `${en} did not answer (fetch failed). Try again in a minute.`, "zh-CN": `${zh}没有响应（获取失败）。请过一分钟再试。` },
    { en: `Imported from ${en}.`, "zh-CN": `已从${zh}导入。` },
  ]),
  { en: "This product is already in the catalogue.", "zh-CN": "此商品已在商品库中。" },
  { en: "Thank you. We will check this listing.", "zh-CN": "谢谢，我们会检查此商品。" },
  { en: "The report could not be sent.", "zh-CN": "报告发送失败。" },
  { en: "Keep the note under 500 characters.", "zh-CN": "备注请控制在 500 个字符以内。" },

  // the blog's posts and comments (app/schemas/blog-rules.ts)
  { en: "Post not found", "zh-CN": "文章不存在" },
  { en: "Comment not found", "zh-CN": "评论不存在" },
  { en: "Please write a comment", "zh-CN": "请填写评论内容" },
  { en: "A comment holds at most 5000 characters", "zh-CN": "评论最多 5000 个字符" },
  { en: "The comment has no text left after removing what is not allowed", "zh-CN": "去掉不允许的内容后，评论已没有文字" },
  { en: "Comments are closed", "zh-CN": "评论已关闭" },
  { en: "Comment posted", "zh-CN": "评论已发布" },
  { en: "Thanks! Your comment is awaiting moderation", "zh-CN": "谢谢！您的评论正在等待审核" },
  { en: "You can only reply to a published comment of this post", "zh-CN": "只能回复本文中已发布的评论" },
  { en: "You can only change your own comments", "zh-CN": "您只能修改自己的评论" },
  { en: "Comment deleted", "zh-CN": "评论已删除" },
  { en: "Unknown like type", "zh-CN": "未知的点赞类型" },
  { en: "Enter a search term", "zh-CN": "请输入要搜索的内容" },

  // sessions (app/routes/logout.tsx)
  { en: "You have been logged out.", "zh-CN": "您已退出登录。" },

  // unsubscribe links (app/services/unsubscribe.server.ts)
  {
    en: "This unsubscribe link is not valid. Copy the whole link from the e-mail, or log in and choose on your profile whether we send you news.",
    "zh-CN": "此退订链接无效。请从邮件中复制完整链接，或登录后在个人资料页中选择是否接收我们的新闻邮件。",
  },
  { en: "This account no longer exists, so it gets no e-mail from us.", "zh-CN": "此账户已不存在，因此不会再收到我们的邮件。" },
  // messages with data: `{$name}` is kept as given (app/i18n/catalogues/types.ts)
  { en: "refreshToken is required", "zh-CN": "缺少 refreshToken" },
  { en: "Unauthorized: invalid token", "zh-CN": "未授权：令牌无效" },
  {
    en: "You are commenting too fast: please wait {$seconds} s before your next comment",
    "zh-CN": "您评论得太快了：请等待 {$seconds} 秒后再发表下一条评论",
  },
  { en: "platform must be weidian, taobao, tmall or 1688", "zh-CN": "platform 参数必须是 weidian、taobao、tmall 或 1688" },
  { en: "{$field} must be a price of 0 or more", "zh-CN": "{$field} 必须是大于或等于 0 的价格" },
  { en: "minPrice must not be more than maxPrice", "zh-CN": "minPrice 不能大于 maxPrice" },
  {
    en: "We could not find this item on {$platform}. Check the link and try again.",
    "zh-CN": "在{$platform}上找不到此商品。请检查链接后重试。",
  },
  { en: "{$platform} did not answer (fetch failed). Try again in a minute.", "zh-CN": "{$platform}没有响应（获取失败）。请一分钟后重试。" },
  { en: "Imported from {$platform}.", "zh-CN": "已从{$platform}导入。" },
  {
    en: "You can only upload {$remaining} more photos ({$used}/{$limit} already uploaded)",
    "zh-CN": "您最多还能上传 {$remaining} 张图片（已上传 {$used}/{$limit} 张）",
  },
  {
    en: [
      "{$count} photo uploaded. They appear in the gallery once a moderator approves them.",
      "{$count} photos uploaded. They appear in the gallery once a moderator approves them.",
    ],
    "zh-CN": "已上传 {$count} 张图片，管理员审核通过后即会显示在图库中。",
  },
  { en: ["{$count} photo published.", "{$count} photos published."], "zh-CN": "已发布 {$count} 张图片。" },
  { en: "Image too large. Maximum {$max} megapixels", "zh-CN": "图片过大，最多 {$max} 百万像素" },
];
