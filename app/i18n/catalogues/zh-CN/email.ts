/** 网站自动发送的邮件（中文）。 */
import type { Catalogue } from "../types";

export default {
  email: {
    signOff: "— {{site}}",
    priceDrop: {
      heading: "降价了",
      subject: "{{name}} 现价 {{to}}",
      intro: "{{site}} 上的 {{name}} 从 {{from}} 降到了 {{to}}。您曾要求在降价时通知您。",
      link: "查看商品",
      footer: "不再接收此商品的降价通知：{{url}}",
    },
    code: {
      codeLabel: "验证码",
      expires: "验证码 10 分钟内有效，且只能使用一次。",
      registerSubject: "{{code}} 是您的 {{site}} 验证码",
      registerHeading: "确认您的邮箱地址",
      registerIntro: "请在注册页面输入此验证码，以创建您的 {{site}} 账户。",
      registerLink: "输入验证码并完成注册",
      verifySubject: "{{code}} 是您的 {{site}} 验证码",
      verifyHeading: "验证您的邮箱地址",
      verifyIntro: "请输入此验证码以验证您的邮箱地址。",
      verifyLink: "验证我的邮箱",
      resetSubject: "{{code}} 是您的 {{site}} 密码重置验证码",
      resetHeading: "重置密码",
      resetIntro: "请输入此验证码以设置新密码。如果这不是您本人的操作，请忽略此邮件。",
      resetLink: "重置我的密码",
      changeSubject: "{{code}} 是您用于确认 {{site}} 新邮箱的验证码",
      changeHeading: "确认您的新邮箱地址",
      changeIntro: "请在个人资料页面输入此验证码，即可开始使用此邮箱地址登录您的账户。",
      changeLink: "打开我的资料",
      approveSubject: "{{code}} 是您更换 {{site}} 邮箱地址的验证码",
      approveHeading: "是您本人在更换邮箱地址吗？",
      approveIntro: "有人（希望是您本人）登录了您的账户，并请求将邮箱地址更换为 {{email}}。请在个人资料页面输入此验证码以允许更换。",
      approveAdvice:
        "如果不是您本人，请不要把此验证码告诉任何人：没有它就不会有任何更改。可能有人登录了您的账户：请在个人资料页面设置密码，这会让其他所有设备退出登录。",
    },
    notice: {
      subject: "您的 {{site}} 账户",
      registeredHeading: "您已经有账户了",
      registeredText: "有人（希望是您本人）尝试用此邮箱地址在 {{site}} 注册，但此邮箱已有账户。",
      registeredAdvice: "请直接登录；如果忘记了密码，可以重置密码。",
      changeHeading: "有人尝试使用您的邮箱地址",
      changeText: "有人请求将另一个 {{site}} 账户的邮箱改为此地址，但此邮箱已有账户。我们没有做任何更改。",
      changeAdvice: "如果是您本人，请登录使用此邮箱的账户；如果不是，请忽略此邮件。",
      logIn: "登录",
    },
  },
} satisfies Catalogue;
