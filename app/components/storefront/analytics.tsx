import { useNonce } from "~/lib/nonce";

/**
 * The admin-provided analytics snippet, injected only when the setting is set. Its
 * <script> tags get this response's CSP nonce so the policy lets them run; scripts they
 * load are allowed through 'strict-dynamic'.
 */
export function Analytics({ code }: { code: string }) {
  const nonce = useNonce();
  const html = nonce ? code.replace(/<script\b/gi, `<script nonce="${nonce}"`) : code;
  return <div hidden className="analytics" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: html }} />;
}
