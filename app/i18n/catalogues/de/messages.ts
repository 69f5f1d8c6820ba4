/** The storefront's messages from services and schemas in German, keyed by their English text (see MessageTranslations). */
import type { MessageTranslations } from "../types";

const messages: MessageTranslations = {
  "This product has no price to watch yet": "Dieses Produkt hat noch keinen Preis, den man beobachten könnte",
  "This link is not valid: copy the whole link from the e-mail, or stop the alert on the product's page.":
    "Dieser Link ist ungültig: Kopieren Sie den ganzen Link aus der E-Mail, oder beenden Sie den Alarm auf der Produktseite.",
  "Choose a photo to search with": "Wählen Sie ein Foto für die Suche",
  "The photo is larger than 10 MB": "Das Foto ist größer als 10 MB",
  "The photo has more than 40 million pixels": "Das Foto hat mehr als 40 Millionen Pixel",
  "Send one photo at a time": "Senden Sie jeweils nur ein Foto",
  "This picture is not indexed yet: try again in a minute": "Dieses Bild ist noch nicht indexiert: Versuchen Sie es in einer Minute erneut",
  "Email is required": "E-Mail ist erforderlich",
  "Please enter a valid email address": "Bitte geben Sie eine gültige E-Mail-Adresse ein",
  "Username is required": "Benutzername ist erforderlich",
  "Username must be 3 to 30 characters": "Der Benutzername muss 3 bis 30 Zeichen lang sein",
  "Username may contain letters, numbers, underscores, dots and hyphens only":
    "Der Benutzername darf nur Buchstaben, Ziffern, Unterstriche, Punkte und Bindestriche enthalten",
  "Password is required": "Passwort ist erforderlich",
  "Password must be at least 6 characters": "Das Passwort muss mindestens 6 Zeichen lang sein",
  "Password must be at most 128 characters": "Das Passwort darf höchstens 128 Zeichen lang sein",
  "Passwords do not match": "Die Passwörter stimmen nicht überein",
  "Verification code is required": "Bestätigungscode ist erforderlich",
  "The verification code is 6 digits": "Der Bestätigungscode hat 6 Ziffern",
  "Invalid or expired verification code": "Ungültiger oder abgelaufener Bestätigungscode",
  "Please enter a valid phone number": "Bitte geben Sie eine gültige Telefonnummer ein",
  "Email or username is required": "E-Mail oder Benutzername ist erforderlich",
  "Invalid email/username or password": "E-Mail/Benutzername oder Passwort ungültig",
  "Please enter the characters shown in the image": "Bitte geben Sie die Zeichen aus dem Bild ein",
  "The characters did not match the image. Please try again.":
    "Die Zeichen stimmen nicht mit dem Bild überein. Bitte versuchen Sie es erneut.",
  "Please verify your email address before logging in.": "Bitte bestätigen Sie Ihre E-Mail-Adresse, bevor Sie sich anmelden.",
  "Too many requests, please try again later": "Zu viele Anfragen, bitte versuchen Sie es später erneut",
  "This email is already registered": "Diese E-Mail-Adresse ist bereits registriert",
  "This username is already taken": "Dieser Benutzername ist bereits vergeben",
  "Authentication required": "Anmeldung erforderlich",
  "Authentication required for this action.": "Für diese Aktion ist eine Anmeldung erforderlich.",
  "User account deleted": "Benutzerkonto gelöscht",
  "Token expired": "Token abgelaufen",
  "Session expired: please log in again": "Sitzung abgelaufen: Bitte melden Sie sich erneut an",
  "Failed to send verification code. Please try again.":
    "Der Bestätigungscode konnte nicht gesendet werden. Bitte versuchen Sie es erneut.",
  "Registration failed. Please try again.": "Die Registrierung ist fehlgeschlagen. Bitte versuchen Sie es erneut.",
  "Login failed. Please check your credentials and try again.":
    "Die Anmeldung ist fehlgeschlagen. Bitte prüfen Sie Ihre Zugangsdaten und versuchen Sie es erneut.",
  "Failed to send password reset code. Please try again.":
    "Der Code zum Zurücksetzen des Passworts konnte nicht gesendet werden. Bitte versuchen Sie es erneut.",
  "Failed to reset password. Please try again.": "Das Passwort konnte nicht zurückgesetzt werden. Bitte versuchen Sie es erneut.",
  "Failed to verify email. Please try again.": "Die E-Mail-Adresse konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.",
  "Failed to resend verification code. Please try again.":
    "Der Bestätigungscode konnte nicht erneut gesendet werden. Bitte versuchen Sie es erneut.",
  "You must be logged in to view your profile.": "Sie müssen angemeldet sein, um Ihr Profil zu sehen.",
  "Failed to update profile.": "Das Profil konnte nicht aktualisiert werden.",
  "Failed to change password.": "Das Passwort konnte nicht geändert werden.",
  "Google login failed.": "Die Anmeldung mit Google ist fehlgeschlagen.",
  "Please select an image file": "Bitte wählen Sie eine Bilddatei aus",
  "Image size cannot exceed 5MB": "Das Bild darf höchstens 5 MB groß sein",
  "Avatar upload failed, please try again": "Der Avatar konnte nicht hochgeladen werden, bitte versuchen Sie es erneut",
  "Please select a single image file": "Bitte wählen Sie eine einzelne Bilddatei aus",
  "The avatar must be an image uploaded to this site": "Der Avatar muss ein auf diese Website hochgeladenes Bild sein",
  "Current password is incorrect": "Das aktuelle Passwort ist falsch",
  "Current password is required to change your email": "Zum Ändern Ihrer E-Mail-Adresse ist das aktuelle Passwort erforderlich",
  "We sent a code to {$email}: enter it to change your email.":
    "Wir haben einen Code an {$email} gesendet: Geben Sie ihn ein, um Ihre E-Mail-Adresse zu ändern.",
  "Product not found": "Produkt nicht gefunden",
  "Category not found": "Kategorie nicht gefunden",
  "Failed to search products.": "Die Produktsuche ist fehlgeschlagen.",
  "Please enter a search term": "Bitte geben Sie einen Suchbegriff ein",
  "The search term is too long": "Der Suchbegriff ist zu lang",
  "Enter prices as numbers, the lowest first": "Geben Sie die Preise als Zahlen ein, den niedrigsten zuerst",
  "Product ID is required": "Produkt-ID ist erforderlich",
  "Added to your collection": "Zu Ihrer Sammlung hinzugefügt",
  "Removed from your collection": "Aus Ihrer Sammlung entfernt",
  "Image size cannot exceed 10MB": "Das Bild darf höchstens 10 MB groß sein",
  "The file is not a JPG, PNG, WEBP or GIF image": "Die Datei ist kein JPG-, PNG-, WEBP- oder GIF-Bild",
  "Maximum 10 files allowed": "Höchstens 10 Dateien erlaubt",
  "Invalid file type. Only JPG, PNG, WEBP allowed": "Ungültiger Dateityp. Nur JPG, PNG, WEBP erlaubt",
  "File too large. Maximum 10MB": "Datei zu groß. Höchstens 10 MB",
  "You have already uploaded this photo for this product": "Sie haben dieses Foto für dieses Produkt bereits hochgeladen",
  "This product has no option of that name: choose one of its options, or none":
    "Dieses Produkt hat keine Option mit diesem Namen: Wähle eine seiner Optionen oder keine",
  "No valid files selected": "Keine gültigen Dateien ausgewählt",
  "Product ID missing, cannot upload QC images": "Produkt-ID fehlt, QC-Bilder können nicht hochgeladen werden",
  "Upload limit reached (10/10)": "Upload-Limit erreicht (10/10)",
  "Failed to upload QC images": "Die QC-Bilder konnten nicht hochgeladen werden",
  "No QC photos available.": "Keine QC-Fotos verfügbar.",
  "Paste a product link or id.": "Fügen Sie einen Produktlink oder eine ID ein.",
  "This is not a Weidian, Taobao, Tmall or 1688 product link or id.":
    "Das ist kein Produktlink und keine ID von Weidian, Taobao, Tmall oder 1688.",
  "1688 QR links can only be opened in the 1688 app. Open it there and copy the product link instead.":
    "1688-QR-Links lassen sich nur in der 1688-App öffnen. Öffnen Sie ihn dort und kopieren Sie stattdessen den Produktlink.",
  "This short link could not be opened. Open it in your browser and paste the product link instead.":
    "Dieser Kurzlink konnte nicht geöffnet werden. Öffnen Sie ihn in Ihrem Browser und fügen Sie stattdessen den Produktlink ein.",
  "We could not find this item on Weidian. Check the link and try again.":
    "Wir konnten diesen Artikel auf Weidian nicht finden. Prüfen Sie den Link und versuchen Sie es erneut.",
  "Weidian did not answer (fetch failed). Try again in a minute.":
    "Weidian hat nicht geantwortet (Abruf fehlgeschlagen). Versuchen Sie es in einer Minute erneut.",
  "Imported from Weidian.": "Von Weidian importiert.",
  "We could not find this item on Taobao. Check the link and try again.":
    "Wir konnten diesen Artikel auf Taobao nicht finden. Prüfen Sie den Link und versuchen Sie es erneut.",
  "Taobao did not answer (fetch failed). Try again in a minute.":
    "Taobao hat nicht geantwortet (Abruf fehlgeschlagen). Versuchen Sie es in einer Minute erneut.",
  "Imported from Taobao.": "Von Taobao importiert.",
  "We could not find this item on Tmall. Check the link and try again.":
    "Wir konnten diesen Artikel auf Tmall nicht finden. Prüfen Sie den Link und versuchen Sie es erneut.",
  "Tmall did not answer (fetch failed). Try again in a minute.":
    "Tmall hat nicht geantwortet (Abruf fehlgeschlagen). Versuchen Sie es in einer Minute erneut.",
  "Imported from Tmall.": "Von Tmall importiert.",
  "We could not find this item on 1688. Check the link and try again.":
    "Wir konnten diesen Artikel auf 1688 nicht finden. Prüfen Sie den Link und versuchen Sie es erneut.",
  "1688 did not answer (fetch failed). Try again in a minute.":
    "1688 hat nicht geantwortet (Abruf fehlgeschlagen). Versuchen Sie es in einer Minute erneut.",
  "Imported from 1688.": "Von 1688 importiert.",
  "This product is already in the catalogue.": "Dieses Produkt ist bereits im Katalog.",
  "Thank you. We will check this listing.": "Danke. Wir prüfen dieses Angebot.",
  "The report could not be sent.": "Die Meldung konnte nicht gesendet werden.",
  "Keep the note under 500 characters.": "Die Anmerkung muss unter 500 Zeichen bleiben.",
  "Post not found": "Beitrag nicht gefunden",
  "Comment not found": "Kommentar nicht gefunden",
  "Please write a comment": "Bitte schreiben Sie einen Kommentar",
  "A comment holds at most 5000 characters": "Ein Kommentar darf höchstens 5000 Zeichen lang sein",
  "The comment has no text left after removing what is not allowed":
    "Nach dem Entfernen unzulässiger Inhalte enthält der Kommentar keinen Text mehr",
  "Comments are closed": "Die Kommentare sind geschlossen",
  "Comment posted": "Kommentar veröffentlicht",
  "Thanks! Your comment is awaiting moderation": "Danke! Ihr Kommentar wartet auf Freigabe",
  "You can only reply to a published comment of this post":
    "Sie können nur auf einen veröffentlichten Kommentar zu diesem Beitrag antworten",
  "You can only change your own comments": "Sie können nur Ihre eigenen Kommentare ändern",
  "Comment deleted": "Kommentar gelöscht",
  "Unknown like type": "Unbekannter Like-Typ",
  "Enter a search term": "Geben Sie einen Suchbegriff ein",
  "You have been logged out.": "Sie wurden abgemeldet.",
  "This unsubscribe link is not valid. Copy the whole link from the e-mail, or log in and choose on your profile whether we send you news.":
    "Dieser Abbestell-Link ist ungültig. Kopieren Sie den vollständigen Link aus der E-Mail oder melden Sie sich an und wählen Sie in Ihrem Profil, ob wir Ihnen News senden.",
  "This account no longer exists, so it gets no e-mail from us.":
    "Dieses Konto existiert nicht mehr und erhält daher keine E-Mails von uns.",
  "refreshToken is required": "refreshToken ist erforderlich",
  "Unauthorized: invalid token": "Nicht autorisiert: ungültiges Token",
  "You are commenting too fast: please wait {$seconds} s before your next comment":
    "Sie kommentieren zu schnell: Bitte warten Sie {$seconds} s bis zum nächsten Kommentar",
  "platform must be weidian, taobao, tmall or 1688": "platform muss weidian, taobao, tmall oder 1688 sein",
  "{$field} must be a price of 0 or more": "{$field} muss ein Preis von 0 oder mehr sein",
  "minPrice must not be more than maxPrice": "minPrice darf nicht größer als maxPrice sein",
  "We could not find this item on {$platform}. Check the link and try again.":
    "Wir konnten diesen Artikel auf {$platform} nicht finden. Prüfen Sie den Link und versuchen Sie es erneut.",
  "{$platform} did not answer (fetch failed). Try again in a minute.":
    "{$platform} hat nicht geantwortet (Abruf fehlgeschlagen). Versuchen Sie es in einer Minute erneut.",
  "Imported from {$platform}.": "Von {$platform} importiert.",
  "You can only upload {$remaining} more photos ({$used}/{$limit} already uploaded)":
    "Sie können nur noch {$remaining} Fotos hochladen ({$used}/{$limit} bereits hochgeladen)",
  "{$count} photos uploaded. They appear in the gallery once a moderator approves them.": [
    "{$count} Foto hochgeladen. Es erscheint in der Galerie, sobald ein Moderator es freigibt.",
    "{$count} Fotos hochgeladen. Sie erscheinen in der Galerie, sobald ein Moderator sie freigibt.",
  ],
  "{$count} photos published.": ["{$count} Foto veröffentlicht.", "{$count} Fotos veröffentlicht."],
  "Image too large. Maximum {$max} megapixels": "Bild zu groß. Höchstens {$max} Megapixel",
};

export default messages;
