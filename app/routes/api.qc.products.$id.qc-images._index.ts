import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed, ok } from "~/lib/api.server";
import { approvedQcImages, qcImageJson, qcProduct } from "~/services/qc.server";

/** GET /api/qc/products/:id/qc-images → {qc_images, totalCount}: the approved photos, newest first (anyone). */
export const loader = ({ params }: LoaderFunctionArgs) =>
  apiRoute(async () => {
    const product = await qcProduct(params.id);
    const images = (await approvedQcImages(product.id)).map(qcImageJson);
    return ok({ qc_images: images, images, totalCount: images.length });
  });

export const action = () => methodNotAllowed(["GET"]);
