/** The e-mails the site sends by itself, in Spanish; keys match en/email.ts (checked by npm test). */
import type { Catalogue } from "../types";

export default {
  email: {
    signOff: "— {{site}}",
    priceDrop: {
      heading: "El precio ha bajado",
      subject: "{{name}} ahora cuesta {{to}}",
      intro: "{{name}} ha bajado de {{from}} a {{to}} en {{site}}. Nos pediste que te avisáramos cuando bajara su precio.",
      link: "Ver el producto",
      footer: "Para dejar de recibir estos correos sobre este producto: {{url}}",
    },
    code: {
      codeLabel: "Código",
      expires: "El código caduca en 10 minutos y solo se puede usar una vez.",
      registerSubject: "{{code}} es tu código de verificación de {{site}}",
      registerHeading: "Confirma tu dirección de correo electrónico",
      registerIntro: "Introduce este código en la página de registro para crear tu cuenta de {{site}}.",
      registerLink: "Introducir el código y terminar",
      verifySubject: "{{code}} es tu código de verificación de {{site}}",
      verifyHeading: "Verifica tu dirección de correo electrónico",
      verifyIntro: "Introduce este código para verificar tu dirección de correo electrónico.",
      verifyLink: "Verificar mi correo",
      resetSubject: "{{code}} es tu código para restablecer la contraseña de {{site}}",
      resetHeading: "Restablece tu contraseña",
      resetIntro: "Introduce este código para elegir una contraseña nueva. Si no lo has solicitado, puedes ignorar este correo.",
      resetLink: "Restablecer mi contraseña",
      changeSubject: "{{code}} es tu código de {{site}} para confirmar tu nuevo correo",
      changeHeading: "Confirma tu nueva dirección de correo electrónico",
      changeIntro: "Introduce este código en tu página de perfil para empezar a usar esta dirección en tu cuenta.",
      changeLink: "Abrir mi perfil",
      approveSubject: "{{code}} es tu código de {{site}} para cambiar tu dirección de correo",
      approveHeading: "¿Eres tú quien cambia tu dirección de correo?",
      approveIntro:
        "Alguien que ha iniciado sesión en tu cuenta (esperamos que tú) ha pedido cambiar su dirección de correo a {{email}}. Introduce este código en tu página de perfil para permitirlo.",
      approveAdvice:
        "Si no has sido tú, no le des este código a nadie: sin él no cambia nada. Puede que alguien haya iniciado sesión en tu cuenta: establece una contraseña en tu página de perfil, lo que cerrará la sesión en todos los demás dispositivos.",
    },
    notice: {
      subject: "Tu cuenta de {{site}}",
      registeredHeading: "Ya tienes una cuenta",
      registeredText:
        "Alguien (esperamos que tú) ha intentado registrarse en {{site}} con esta dirección de correo, que ya tiene una cuenta.",
      registeredAdvice: "Inicia sesión o restablece tu contraseña si la has olvidado.",
      changeHeading: "Alguien ha intentado usar tu dirección de correo",
      changeText:
        "Alguien ha pedido trasladar otra cuenta de {{site}} a esta dirección de correo, que ya tiene una cuenta. No se ha cambiado nada.",
      changeAdvice: "Si has sido tú, inicia sesión en la cuenta que tiene esta dirección. Si no, puedes ignorar este correo.",
      logIn: "Iniciar sesión",
    },
  },
} satisfies Catalogue;
