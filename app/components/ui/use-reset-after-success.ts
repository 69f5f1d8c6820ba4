import { useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type RefObject } from "react";

/**
 * With JavaScript, a form the server accepted comes back empty, as the fresh page after
 * the redirect does without JavaScript: a chosen file is never sent twice by a second
 * press. Accepted means the post answered with a redirect (every successful post here
 * does: Post/Redirect/Get), so no action data came back. Returns the form's onSubmit.
 */
export function useResetAfterSuccess(form: RefObject<HTMLFormElement | null>, onReset?: () => void): () => void {
  const navigation = useNavigation();
  const actionData = useActionData();
  const sent = useRef(false);
  const reset = useRef(onReset);
  reset.current = onReset;
  useEffect(() => {
    if (navigation.state !== "idle" || !sent.current) return;
    sent.current = false;
    if (actionData !== undefined) return;
    form.current?.reset();
    reset.current?.();
  }, [navigation.state, actionData, form]);
  return () => {
    sent.current = true;
  };
}
