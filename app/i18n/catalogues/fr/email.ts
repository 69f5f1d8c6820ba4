/** The e-mails the site sends by itself, in French; keys match en/email.ts (checked by npm test). */
import type { Catalogue } from "../types";

export default {
  email: {
    signOff: "— {{site}}",
    priceDrop: {
      heading: "Le prix a baissé",
      subject: "{{name}} est maintenant à {{to}}",
      intro: "{{name}} est passé de {{from}} à {{to}} sur {{site}}. Vous nous avez demandé de vous prévenir quand son prix baisse.",
      link: "Voir le produit",
      footer: "Pour ne plus recevoir ces e-mails pour ce produit : {{url}}",
    },
    code: {
      codeLabel: "Code",
      expires: "Le code expire dans 10 minutes et ne peut être utilisé qu’une fois.",
      registerSubject: "{{code}} est votre code de vérification {{site}}",
      registerHeading: "Confirmez votre adresse e-mail",
      registerIntro: "Saisissez ce code sur la page d’inscription pour créer votre compte {{site}}.",
      registerLink: "Saisir le code et terminer",
      verifySubject: "{{code}} est votre code de vérification {{site}}",
      verifyHeading: "Vérifiez votre adresse e-mail",
      verifyIntro: "Saisissez ce code pour vérifier votre adresse e-mail.",
      verifyLink: "Vérifier mon e-mail",
      resetSubject: "{{code}} est votre code de réinitialisation du mot de passe {{site}}",
      resetHeading: "Réinitialisez votre mot de passe",
      resetIntro: "Saisissez ce code pour choisir un nouveau mot de passe. Si vous ne l’avez pas demandé, vous pouvez ignorer cet e-mail.",
      resetLink: "Réinitialiser mon mot de passe",
      changeSubject: "{{code}} est votre code {{site}} pour confirmer votre nouvel e-mail",
      changeHeading: "Confirmez votre nouvelle adresse e-mail",
      changeIntro: "Saisissez ce code sur votre page de profil pour utiliser cette adresse avec votre compte.",
      changeLink: "Ouvrir mon profil",
      approveSubject: "{{code}} est votre code {{site}} pour changer votre adresse e-mail",
      approveHeading: "Est-ce vous qui changez votre adresse e-mail ?",
      approveIntro:
        "Une personne connectée à votre compte (vous, espérons-le) a demandé à changer son adresse e-mail pour {{email}}. Saisissez ce code sur votre page de profil pour l’autoriser.",
      approveAdvice:
        "Si ce n’était pas vous, ne donnez ce code à personne : rien ne change sans lui. Quelqu’un est peut-être connecté à votre compte : définissez un mot de passe sur votre page de profil, ce qui déconnecte tous les autres appareils.",
    },
    notice: {
      subject: "Votre compte {{site}}",
      registeredHeading: "Vous avez déjà un compte",
      registeredText: "Quelqu’un (vous, espérons-le) a tenté de s’inscrire sur {{site}} avec cette adresse e-mail, qui a déjà un compte.",
      registeredAdvice: "Connectez-vous plutôt, ou réinitialisez votre mot de passe si vous l’avez oublié.",
      changeHeading: "Quelqu’un a tenté d’utiliser votre adresse e-mail",
      changeText:
        "Quelqu’un a demandé à associer un autre compte {{site}} à cette adresse e-mail, qui a déjà un compte. Rien n’a été modifié.",
      changeAdvice: "Si c’était vous, connectez-vous au compte qui utilise cette adresse. Sinon, vous pouvez ignorer cet e-mail.",
      logIn: "Se connecter",
    },
  },
} satisfies Catalogue;
