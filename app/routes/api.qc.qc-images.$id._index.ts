import type { ActionFunctionArgs } from "@remix-run/node";
import { byMethod, methodNotAllowed, ok, parseId } from "~/lib/api.server";
import { QC_PERMISSIONS } from "~/lib/permissions";
import { requireApiAdmin } from "~/services/permissions.server";
import { deleteQcImage } from "~/services/qc.server";

export const loader = () => methodNotAllowed(["DELETE"]);

/** DELETE /api/qc/qc-images/:id: the photo and its files (qc.delete or qc.manage). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  byMethod(request, {
    DELETE: async () => {
      const actor = await requireApiAdmin(request, { anyOf: QC_PERMISSIONS.delete });
      await deleteQcImage(parseId(params.id), actor);
      return ok({ message: "QC image deleted" });
    },
  });
