/**
 * The limits the blog post page's comment form shows (re-exported by blog-rules.ts). In a
 * module of their own: blog-rules.ts, shared with the back office, holds every blog
 * message, and a page importing from it carries them all (the same reason as
 * app/schemas/qc-selection.ts).
 */
export const COMMENT_MAX = 5000;
/** spec (issue 11): a comment with more than this many links waits for moderation. */
export const COMMENT_LINKS_MAX = 2;
