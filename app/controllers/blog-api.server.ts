/** What the blog's routes share on the server: permission sets, list limits, picture uploads. */
import { ApiError } from "~/lib/api.server";
import { PERMISSIONS, type Permission } from "~/lib/permissions";
import { BLOG_IMAGE_MAX_BYTES, BLOG_MESSAGES as M, BLOG_SIDE_LIST_SIZE } from "~/schemas/blog-rules";
import { isUploadedFile, storeImage, withMultipart, type UploadedFile } from "~/services/uploads.server";

/** Every blog.* permission: holding any of them opens the blog's back office. */
export const BLOG_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((permission) => permission.startsWith("blog."));

/** `?limit=` of the featured and popular lists: 1–20, default 5. */
export function sideListLimit(request: Request): number {
  const raw = Number(new URL(request.url).searchParams.get("limit"));
  return Number.isInteger(raw) && raw > 0 ? Math.min(raw, 20) : BLOG_SIDE_LIST_SIZE;
}

const IMAGE_MESSAGES = { notImage: M.imageNotImage, tooLarge: M.imageTooLarge };

/** Stores one chosen picture (re-encoded, server-made name, issued to `ownerId`) and answers its address. */
export async function storeBlogImageFile(file: UploadedFile, ownerId: number): Promise<string> {
  return (await storeImage(file, "blog", ownerId, IMAGE_MESSAGES, BLOG_IMAGE_MAX_BYTES)).url;
}

/** POST /api/blog/images: the multipart field `image` (or `file`), one picture. */
export async function storeBlogImage(request: Request, ownerId: number): Promise<string> {
  return withMultipart(
    request,
    { maxFileBytes: BLOG_IMAGE_MAX_BYTES, maxFiles: 1, maxFields: 5, messages: { fileTooLarge: M.imageTooLarge } },
    async (form) => {
      const file = form.get("image") ?? form.get("file");
      if (!isUploadedFile(file) || file.size === 0)
        throw new ApiError(400, "Choose an image to upload", "VALIDATION_ERROR", [
          { field: "image", message: "Choose an image to upload" },
        ]);
      return storeBlogImageFile(file, ownerId);
    },
  );
}
