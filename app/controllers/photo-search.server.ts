/**
 * Search by photo for the page (/search/photo) and the /api (POST /api/search/photo): one
 * reading of the upload, one answer (issue 38, docs/decisions/047-photo-index.md). The
 * photo is checked like every upload (its type by its bytes, its pixels, its size), hashed
 * and thrown away with the request's temporary folder: nothing of it is stored.
 */
import { ApiError } from "~/lib/api.server";
import { PHOTO_SEARCH_FILE_STREAM_BYTES } from "~/lib/body-limits.server";
import { answerNotStored } from "~/lib/request-scope.server";
import { PHOTO_SEARCH_MAX_BYTES, PHOTO_SEARCH_MESSAGES as M } from "~/schemas/photo-search-rules";
import { withProducts, type PhotoMatchProduct } from "~/services/catalogue/same-item.server";
import { photoSyncSettled, queryOfUpload, searchByPhoto, searchFromPicture } from "~/services/photos/photo-search.server";
import { limitPhotoSearches } from "~/services/rate-limit.server";
import { isUploadedFile, MAX_PIXELS, sniffImage, withMultipart } from "~/services/uploads.server";

export type PhotoSearchAnswer = { items: PhotoMatchProduct[]; nothingClose: boolean };

const FORMATS = ["jpeg", "png", "webp", "gif"];
const invalid = (message: string) => new ApiError(400, message, "VALIDATION_ERROR", [{ field: "image", message }]);

/** The products a posted photo (multipart field `image`) shows; 400 for no, a bad or an oversized file, 429 past the address's limit. */
export async function searchByUploadedPhoto(request: Request, clientIp: string): Promise<PhotoSearchAnswer> {
  answerNotStored();
  await limitPhotoSearches(clientIp);
  try {
    return await withMultipart(
      request,
      {
        maxFileBytes: PHOTO_SEARCH_FILE_STREAM_BYTES,
        maxFiles: 1,
        maxFields: 8,
        messages: { fileTooLarge: M.tooLarge, tooManyFiles: M.oneFile },
        tooManyFilesStatus: 400,
      },
      async (form) => {
        const file = form.get("image");
        if (!isUploadedFile(file) || file.size === 0) throw invalid(M.required);
        if (file.size > PHOTO_SEARCH_MAX_BYTES) throw invalid(M.tooLarge);
        const sniffed = await sniffImage(file);
        if (!sniffed || !FORMATS.includes(sniffed.format)) throw invalid(M.notImage);
        if (sniffed.pixels > MAX_PIXELS) throw invalid(M.tooManyPixels);
        const query = await queryOfUpload(file.getFilePath(), { notImage: M.notImage });
        // a product stored a moment ago is searched too
        await photoSyncSettled();
        const items = await withProducts(await searchByPhoto(query));
        return { items, nothingClose: items.length === 0 };
      },
    );
  } catch (error) {
    // the contract: a bad or oversized file is a 400 (the reader says 413 past its own cap)
    if (error instanceof ApiError && error.status === 413) throw invalid(M.tooLarge);
    throw error;
  }
}

/** "Find similar" on one of the catalogue's pictures; null when the picture has no fingerprint yet. */
export async function searchBySimilarPicture(imageUrl: string): Promise<PhotoSearchAnswer | null> {
  const found = await searchFromPicture(imageUrl);
  if (!found) return null;
  const items = await withProducts(found);
  return { items, nothingClose: items.length === 0 };
}
