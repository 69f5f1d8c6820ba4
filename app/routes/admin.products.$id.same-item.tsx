import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ApiError, parseInput } from "~/lib/api.server";
import { redirectWithToast } from "~/lib/toast.server";
import { productIdParam } from "~/controllers/admin-product-form.server";
import { readLanguage, translateMessage, translatorFor } from "~/i18n/i18n.server";
import { sameItemFormSchema } from "~/schemas/photo-search";
import { decideSameItemByAdmin } from "~/services/catalogue/same-item.server";
import { adminAction } from "~/services/permissions.server";

/** Nothing to show here: the decisions live on the product's edit page. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/admin/products/${productIdParam(params.id)}/edit`);

/**
 * POST /admin/products/:id/same-item (product.edit), `other` and `decision` (linked,
 * dismissed or forget): staff's word on a listing found alike, back to the edit page's
 * "Probably the same item" section with a notice.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  adminAction(
    request,
    async (actor) => {
      const id = productIdParam(params.id);
      const back = `/admin/products/${id}/edit#same-item`;
      const t = translatorFor(readLanguage(request));
      try {
        const form = parseInput(sameItemFormSchema, Object.fromEntries(await request.formData()));
        const decision = form.decision === "forget" ? null : form.decision;
        await decideSameItemByAdmin(id, form.other, decision, actor);
        const done =
          decision === "linked"
            ? "admin.sameItem.linkedDone"
            : decision === "dismissed"
              ? "admin.sameItem.dismissedDone"
              : "admin.sameItem.forgotDone";
        return redirectWithToast(back, { message: t(done, { n: form.other }), type: "success" });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.status === 403) throw error;
        return redirectWithToast(back, { message: translateMessage(readLanguage(request), error.message), type: "error" });
      }
    },
    { permission: "product.edit" },
  );
