/** The e-mails the site sends by itself, in German; keys match en/email.ts (checked by npm test). */
import type { Catalogue } from "../types";

export default {
  email: {
    signOff: "— {{site}}",
    priceDrop: {
      heading: "Der Preis ist gesunken",
      subject: "{{name}} kostet jetzt {{to}}",
      intro: "{{name}} ist auf {{site}} von {{from}} auf {{to}} gesunken. Sie wollten benachrichtigt werden, wenn der Preis sinkt.",
      link: "Zum Produkt",
      footer: "Keine weiteren E-Mails zu diesem Produkt: {{url}}",
    },
    code: {
      codeLabel: "Code",
      expires: "Der Code ist 10 Minuten gültig und kann einmal verwendet werden.",
      registerSubject: "{{code}} ist Ihr Bestätigungscode für {{site}}",
      registerHeading: "Bestätigen Sie Ihre E-Mail-Adresse",
      registerIntro: "Geben Sie diesen Code auf der Registrierungsseite ein, um Ihr Konto bei {{site}} zu erstellen.",
      registerLink: "Code eingeben und abschließen",
      verifySubject: "{{code}} ist Ihr Bestätigungscode für {{site}}",
      verifyHeading: "Bestätigen Sie Ihre E-Mail-Adresse",
      verifyIntro: "Geben Sie diesen Code ein, um Ihre E-Mail-Adresse zu bestätigen.",
      verifyLink: "Meine E-Mail bestätigen",
      resetSubject: "{{code}} ist Ihr Code zum Zurücksetzen des Passworts für {{site}}",
      resetHeading: "Passwort zurücksetzen",
      resetIntro:
        "Geben Sie diesen Code ein, um ein neues Passwort zu wählen. Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.",
      resetLink: "Mein Passwort zurücksetzen",
      changeSubject: "{{code}} ist Ihr Code für {{site}} zur Bestätigung Ihrer neuen E-Mail-Adresse",
      changeHeading: "Bestätigen Sie Ihre neue E-Mail-Adresse",
      changeIntro: "Geben Sie diesen Code auf Ihrer Profilseite ein, um diese Adresse für Ihr Konto zu verwenden.",
      changeLink: "Mein Profil öffnen",
      approveSubject: "{{code}} ist Ihr Code für {{site}} zum Ändern Ihrer E-Mail-Adresse",
      approveHeading: "Ändern Sie gerade Ihre E-Mail-Adresse?",
      approveIntro:
        "Jemand, der in Ihrem Konto angemeldet ist (hoffentlich Sie), möchte die E-Mail-Adresse in {{email}} ändern. Geben Sie diesen Code auf Ihrer Profilseite ein, um das zu erlauben.",
      approveAdvice:
        "Wenn Sie das nicht waren, geben Sie diesen Code niemandem weiter: Ohne ihn ändert sich nichts. Möglicherweise ist jemand in Ihrem Konto angemeldet: Legen Sie auf Ihrer Profilseite ein Passwort fest – dadurch werden alle anderen Geräte abgemeldet.",
    },
    notice: {
      subject: "Ihr Konto bei {{site}}",
      registeredHeading: "Sie haben bereits ein Konto",
      registeredText:
        "Jemand (hoffentlich Sie) hat versucht, sich bei {{site}} mit dieser E-Mail-Adresse zu registrieren, für die bereits ein Konto besteht.",
      registeredAdvice: "Melden Sie sich stattdessen an oder setzen Sie Ihr Passwort zurück, falls Sie es vergessen haben.",
      changeHeading: "Jemand wollte Ihre E-Mail-Adresse verwenden",
      changeText:
        "Jemand wollte ein anderes Konto bei {{site}} auf diese E-Mail-Adresse umstellen, für die bereits ein Konto besteht. Es wurde nichts geändert.",
      changeAdvice:
        "Wenn Sie das waren, melden Sie sich bei dem Konto mit dieser Adresse an. Wenn nicht, können Sie diese E-Mail ignorieren.",
      logIn: "Anmelden",
    },
  },
} satisfies Catalogue;
