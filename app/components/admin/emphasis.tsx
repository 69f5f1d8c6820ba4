import type { ReactNode } from "react";

/** The stand-in for the bold value of a translated sentence: `t(key, { name: MARK })`. */
export const MARK = "\u0001";

/** A translated sentence with one value in bold, where the sentence puts it. */
export function Emphasis({ text, children }: { text: string; children: ReactNode }) {
  const at = text.indexOf(MARK);
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <strong>{children}</strong>
      {text.slice(at + MARK.length)}
    </>
  );
}
