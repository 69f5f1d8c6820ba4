/**
 * The one write path of the services (docs/architecture.md, "One write path"). A write says
 * once, where it is defined, who may make it and which stored answers it makes stale; the
 * wrapper does both, so neither can be forgotten by a page, its /api twin or a later write:
 *
 * - `staffWrite`: a back-office write. Its last argument is the actor; the requirement is
 *   checked (assertMay: back-office access and the permission) before the write reads or
 *   changes anything, for the page and /api alike. Every staff write is listed
 *   (staffWrites()), so the permissions test finds a new one by itself.
 * - `contentWrite`: a write anyone may start whose own rules decide (a comment, a like,
 *   a shopper's import): only the staleness.
 * - `pagesChanged`: for a write whose staleness depends on what it found (a job's price
 *   check, a QC photo published at once or held for review).
 *
 * Staleness: the stored answers made from what the write changed are read again after it
 * (after, so a page rendered meanwhile is never kept as current). A write refused before it
 * wrote (an ApiError below 500: not found, not allowed, bad input, too many) changes
 * nothing and keeps them; any other failure may have written part of it, so it drops them
 * too. `changedWhen` lets a write that may change nothing (a move past the last place, an
 * update with no differences) keep them.
 */
import { ApiError } from "~/lib/api.server";
import { blogChanged, contentChanged } from "~/lib/content-version.server";
import { assertMay, type Actor, type Requirement } from "./permissions.server";

/**
 * Which stored answers a write makes stale: "shop" (every page that shows the catalogue,
 * QC photos, agents, rates or the site's settings) or "blog" (the public blog pages only).
 */
export type Stale = "shop" | "blog";

export type WriteRule<R> = {
  /** who may make it (staff writes) */
  requires: Requirement;
  /** the stored answers it makes stale; [] for writes no stored answer shows (users, mail) */
  stales: readonly Stale[];
  /**
   * The refusal's own words where the spec gives them (a 403 the page shows as the form's
   * error); otherwise ForbiddenError's '权限不足，需要管理员权限' (the page's 403).
   */
  refusal?: string;
  /** for a write that may change nothing: whether this result changed anything (default: yes) */
  changedWhen?: (result: R) => boolean;
};

type Write<A extends unknown[], R> = (...args: A) => Promise<R>;

/** A staff write as the services export it: the write, with its rule and name for the permissions test. */
export type StaffWrite<A extends unknown[], R> = Write<[...A, Actor], R> & { readonly rule: WriteRule<R>; readonly arity: number };

const registry = new Set<StaffWrite<never[], unknown>>();

/** Every staff write defined so far (the permissions test imports the services first). */
export function staffWrites(): ReadonlyArray<StaffWrite<never[], unknown>> {
  return [...registry];
}

const shopListeners = new Set<() => void>();

/**
 * Work that follows every change of the shop's content, whoever wrote it (the photo
 * fingerprints' sync is brought forward: app/services/photos/photo-search.server.ts).
 * Listeners must be quick and must not throw: they only schedule.
 */
export function afterShopChanges(listener: () => void): void {
  shopListeners.add(listener);
}

/** Tells the stored answers that what they show changed. */
export function pagesChanged(stales: readonly Stale[]): void {
  for (const stale of stales) {
    if (stale === "shop") {
      contentChanged();
      for (const listener of shopListeners) listener();
    } else blogChanged();
  }
}

const isActor = (value: unknown): value is Actor =>
  typeof value === "object" && value !== null && "access" in value && "user" in value && typeof (value as Actor).access === "object";

/**
 * A write anyone may start, whose own rules decide who (a comment, a like): the stored
 * answers it changes are made stale after it.
 */
export function contentWrite<A extends unknown[], R>(rule: Pick<WriteRule<R>, "stales" | "changedWhen">, write: Write<A, R>): Write<A, R> {
  return async (...args: A) => {
    let result: R;
    try {
      result = await write(...args);
    } catch (error) {
      if (!(error instanceof ApiError && error.status < 500)) pagesChanged(rule.stales);
      throw error;
    }
    if (!rule.changedWhen || rule.changedWhen(result)) pagesChanged(rule.stales);
    return result;
  };
}

/**
 * A back-office write: its last argument is the actor, who must meet `rule.requires`
 * (checked here, before the write runs); then `rule.stales` are made stale. A call without
 * an actor in last place is a programming error, refused as loudly as a missing permission
 * is: it never runs unchecked.
 */
export function staffWrite<A extends unknown[], R>(rule: WriteRule<R>, write: Write<[...A, Actor], R>): StaffWrite<A, R> {
  const changing = contentWrite(rule, write);
  const wrapped = async (...args: [...A, Actor]) => {
    const actor = args[args.length - 1];
    if (!isActor(actor)) throw new Error(`${write.name || "a staff write"} was called without an actor in last place`);
    try {
      assertMay(actor, rule.requires);
    } catch (error) {
      if (rule.refusal) throw new ApiError(403, rule.refusal, "FORBIDDEN");
      throw error;
    }
    return changing(...args);
  };
  const staff = Object.assign(wrapped, { rule, arity: write.length }) as StaffWrite<A, R>;
  registry.add(staff as unknown as StaffWrite<never[], unknown>);
  return staff;
}
