/** The e-mails the site sends by itself, in Brazilian Portuguese; keys match en/email.ts (checked by npm test). */
import type { Catalogue } from "../types";

export default {
  email: {
    signOff: "— {{site}}",
    priceDrop: {
      heading: "O preço caiu",
      subject: "{{name}} agora custa {{to}}",
      intro: "{{name}} caiu de {{from}} para {{to}} em {{site}}. Você pediu para ser avisado quando o preço baixasse.",
      link: "Ver o produto",
      footer: "Para parar de receber estes e-mails sobre este produto: {{url}}",
    },
    code: {
      codeLabel: "Código",
      expires: "O código expira em 10 minutos e só pode ser usado uma vez.",
      registerSubject: "{{code}} é seu código de verificação do {{site}}",
      registerHeading: "Confirme seu endereço de e-mail",
      registerIntro: "Digite este código na página de cadastro para criar sua conta no {{site}}.",
      registerLink: "Digitar o código e concluir",
      verifySubject: "{{code}} é seu código de verificação do {{site}}",
      verifyHeading: "Confirme seu endereço de e-mail",
      verifyIntro: "Digite este código para confirmar seu endereço de e-mail.",
      verifyLink: "Confirmar meu e-mail",
      resetSubject: "{{code}} é seu código de redefinição de senha do {{site}}",
      resetHeading: "Redefina sua senha",
      resetIntro: "Digite este código para escolher uma nova senha. Se você não pediu isso, pode ignorar este e-mail.",
      resetLink: "Redefinir minha senha",
      changeSubject: "{{code}} é seu código do {{site}} para confirmar seu novo e-mail",
      changeHeading: "Confirme seu novo endereço de e-mail",
      changeIntro: "Digite este código na sua página de perfil para começar a usar este endereço na sua conta.",
      changeLink: "Abrir meu perfil",
      approveSubject: "{{code}} é seu código do {{site}} para alterar seu endereço de e-mail",
      approveHeading: "É você que está alterando seu endereço de e-mail?",
      approveIntro:
        "Alguém conectado à sua conta (esperamos que seja você) pediu para alterar o endereço de e-mail dela para {{email}}. Digite este código na sua página de perfil para permitir.",
      approveAdvice:
        "Se não foi você, não passe este código para ninguém: sem ele, nada muda. Alguém pode estar conectado à sua conta: defina uma senha na sua página de perfil, o que desconecta todos os outros dispositivos.",
    },
    notice: {
      subject: "Sua conta no {{site}}",
      registeredHeading: "Você já tem uma conta",
      registeredText: "Alguém (esperamos que você) tentou se cadastrar no {{site}} com este endereço de e-mail, que já tem uma conta.",
      registeredAdvice: "Em vez disso, entre na sua conta ou redefina sua senha se você a esqueceu.",
      changeHeading: "Alguém tentou usar seu endereço de e-mail",
      changeText:
        "Alguém pediu para transferir outra conta do {{site}} para este endereço de e-mail, que já tem uma conta. Nada foi alterado.",
      changeAdvice: "Se foi você, entre na conta que usa este endereço. Se não, pode ignorar este e-mail.",
      logIn: "Entrar",
    },
  },
} satisfies Catalogue;
