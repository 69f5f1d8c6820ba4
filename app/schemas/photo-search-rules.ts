/**
 * Search by photo (issue 38): its limits and messages (client-safe). The /api speaks
 * these English words; the pages show them in the reader's language
 * (app/i18n/catalogues/messages/shop.ts).
 */

/** A shopper's photo is read up to this size (as product images). */
export const PHOTO_SEARCH_MAX_BYTES = 10 * 1024 * 1024;
/** the file types the form offers (anything else is refused by its bytes anyway) */
export const PHOTO_SEARCH_ACCEPT = "image/jpeg,image/png,image/webp,image/gif";

export const PHOTO_SEARCH_MESSAGES = {
  required: "Choose a photo to search with",
  notImage: "The file is not a JPG, PNG, WEBP or GIF image",
  tooLarge: "The photo is larger than 10 MB",
  tooManyPixels: "The photo has more than 40 million pixels",
  oneFile: "Send one photo at a time",
  notIndexed: "This picture is not indexed yet: try again in a minute",
} as const;

/** Staff's word on two listings found alike (the back office's "probably the same item"). */
export const SAME_ITEM_DECISIONS = ["linked", "dismissed"] as const;
export type SameItemDecision = (typeof SAME_ITEM_DECISIONS)[number];

export const SAME_ITEM_MESSAGES = {
  decision: "decision must be linked, dismissed or null",
  other: "Choose the other listing",
} as const;
