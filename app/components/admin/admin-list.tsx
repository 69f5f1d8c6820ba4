/**
 * Every back-office list is drawn by AdminList: the heading with its count and toolbar,
 * the filters, a notice or error, the rows (a table from `columns`, or the page's own
 * grid from `renderItems`), the empty state, the selection with its bulk bar, the paging
 * and the page's dialogs (docs/architecture.md, "One admin list").
 *
 * Without JavaScript everything is links and plain forms: the search is a GET form, a
 * filter is a link, a selection is ticked box by box and posted with the bar's button, a
 * delete opens its confirmation dialog by the address (AdminConfirmDialog). JavaScript only
 * adds the "select all" box and, where asked, the search as one types.
 */
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, type ComponentProps, type ReactNode } from "react";
import { ConfirmForm } from "~/components/admin/confirm-form";
import { AdminDialog } from "~/components/admin/dialog";
import { useHydrated, useSelectAll } from "~/components/admin/select-all";
import { Pagination } from "~/components/ui/pagination";
import { useI18n, useT } from "~/i18n/i18n";

export type AdminColumn<T> = {
  header: string;
  cell: (item: T) => ReactNode;
  /** The label a narrow screen shows beside the value (the header unless told). */
  label?: string;
  className?: string;
};

export type AdminSelection<T> = {
  /** Where the selection is posted (the list's own address, its search and page kept). */
  action: string;
  /** Hidden fields posted with it (returnTo, ...). */
  hidden?: Record<string, string>;
  /** The accessible name of an item's box ("Select <name>"); not needed when renderItems draws the boxes. */
  itemLabel?: (item: T) => string;
  /** The bulk actions beside "select all": buttons named `intent`. */
  bar: ReactNode;
  barClassName?: string;
  /** Shown above the items inside the form (an error of the last bulk action). */
  notice?: ReactNode;
};

type AdminListProps<T> = {
  title: ReactNode;
  count?: number;
  intro?: ReactNode;
  toolbar?: ReactNode;
  /** A section of a page with its own h1 (the e-mail tabs): an h2 with this id labels it. */
  sectionId?: string;
  filters?: ReactNode;
  notice?: ReactNode;
  error?: string | null;
  items: readonly T[];
  itemKey: (item: T) => string | number;
  empty: ReactNode;
  columns?: ReadonlyArray<AdminColumn<T> | false | null>;
  /** The row's last cell: its links and buttons. */
  actions?: (item: T) => ReactNode;
  tableClassName?: string;
  rowAttributes?: (item: T) => Record<string, string | number>;
  /** A list that is not a table (photo grids, comment cards): drawn by the page. */
  renderItems?: (items: readonly T[]) => ReactNode;
  selection?: AdminSelection<T> | null;
  paging?: ComponentProps<typeof Pagination>;
  /** After the list: a footnote, the page's dialogs. */
  children?: ReactNode;
};

export function AdminList<T>(props: AdminListProps<T>) {
  const { title, count, intro, toolbar, sectionId, filters, notice, error, items, empty, selection, paging, children } = props;
  const { message } = useI18n();
  const heading = (
    <>
      {title}
      {count !== undefined ? (
        <>
          {" "}
          <span className="admin-badge admin-badge--count">{count}</span>
        </>
      ) : null}
    </>
  );
  const header = sectionId ? (
    <div className="admin-page__header admin-page__header--row">
      <h2 id={sectionId}>{heading}</h2>
      {toolbar ? <div className="admin-toolbar">{toolbar}</div> : null}
    </div>
  ) : (
    <header className="admin-page__header admin-page__header--row">
      <div>
        <h1>{heading}</h1>
        {intro ? <p className="muted">{intro}</p> : null}
      </div>
      {toolbar ? <div className="admin-toolbar">{toolbar}</div> : null}
    </header>
  );
  const body = <AdminListBody {...props} items={items} empty={empty} selection={selection} />;
  const content = (
    <>
      {header}
      {filters}
      {notice}
      {error ? (
        <p className="notice notice--error" role="alert">
          {message(error)}
        </p>
      ) : null}
      {body}
      {paging ? <Pagination {...paging} /> : null}
      {children}
    </>
  );
  return sectionId ? <section aria-labelledby={sectionId}>{content}</section> : <div className="admin-page">{content}</div>;
}

type BodyProps<T> = Pick<
  AdminListProps<T>,
  "items" | "itemKey" | "empty" | "columns" | "actions" | "tableClassName" | "rowAttributes" | "renderItems" | "selection"
>;

/**
 * The list without its page around it (the rows, the empty state, the selection and its
 * bar): for a list inside another page, such as a product's QC photos.
 */
export function AdminListBody<T>(props: BodyProps<T>) {
  return props.items.length === 0 ? <>{props.empty}</> : <SelectionForm {...props} />;
}

/** The items, inside the selection's form when there is one. */
function SelectionForm<T>(props: BodyProps<T>) {
  const { selection } = props;
  const { form, selectAll } = useSelectAll<HTMLFormElement>();
  if (!selection) return <Items {...props} />;
  return (
    <Form method="post" action={selection.action} ref={form} preventScrollReset>
      {Object.entries(selection.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className={selection.barClassName ? `admin-bulk-bar ${selection.barClassName}` : "admin-bulk-bar"}>
        {selectAll}
        {selection.bar}
      </div>
      {selection.notice}
      <Items {...props} />
    </Form>
  );
}

function Items<T>({ items, itemKey, columns, actions, tableClassName, rowAttributes, renderItems, selection }: BodyProps<T>) {
  const t = useT();
  if (renderItems) return <>{renderItems(items)}</>;
  const shown = (columns ?? []).filter((column): column is AdminColumn<T> => Boolean(column));
  const boxes = Boolean(selection?.itemLabel);
  return (
    <table className={tableClassName ? `admin-table ${tableClassName}` : "admin-table"}>
      <thead>
        <tr>
          {boxes ? (
            <th scope="col">
              <span className="visually-hidden">{t("admin.common.select")}</span>
            </th>
          ) : null}
          {shown.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">{t("admin.common.actions")}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={itemKey(item)} {...rowAttributes?.(item)}>
            {boxes ? (
              <td data-label={t("admin.common.select")}>
                <input type="checkbox" name="ids" value={itemKey(item)} aria-label={selection!.itemLabel!(item)} />
              </td>
            ) : null}
            {shown.map((column) => (
              <td key={column.header} data-label={column.label ?? column.header} className={column.className}>
                {column.cell(item)}
              </td>
            ))}
            {actions ? <ActionsCell>{actions(item)}</ActionsCell> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A row's last cell: its actions, or (none for this row) a cell a phone does not show. */
function ActionsCell({ children }: { children: ReactNode }) {
  const t = useT();
  const empty = children === null || children === undefined || children === false;
  return (
    <td data-label={t("admin.common.actions")} className={empty ? "admin-table__no-actions" : undefined}>
      {empty ? null : <div className="admin-row-actions">{children}</div>}
    </td>
  );
}

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A list's search: a GET form (the filters it must keep as hidden fields), a button, and
 * any further controls (a page-size select). `live`: with JavaScript the search runs
 * 300 ms after typing stops and a select applies at once.
 */
export function AdminSearch({
  action,
  id,
  label,
  name = "q",
  value,
  placeholder,
  keep,
  live,
  children,
}: {
  action: string;
  id: string;
  label: string;
  name?: string;
  value: string;
  placeholder?: string;
  /** Filters the search keeps (hidden fields): only those with a value. */
  keep?: Record<string, string | null | undefined>;
  live?: boolean;
  children?: ReactNode;
}) {
  const t = useT();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const navigation = useNavigation();
  const navigating = useRef(false);
  navigating.current = navigation.state !== "idle";
  const enhanced = hydrated && live;
  const searchSoon = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // a click elsewhere (a row's Edit link, the Search button) since the typing wins
      if (navigating.current || !form.current) return;
      submit(form.current, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
  };
  return (
    <Form
      method="get"
      action={action}
      role="search"
      className="site-search admin-search"
      ref={form}
      onSubmit={() => clearTimeout(timer.current)}
      onChange={
        enhanced
          ? (event) => {
              // a select (the page size) applies at once; typing waits
              if (event.target instanceof HTMLSelectElement) submit(event.currentTarget, { replace: true });
            }
          : undefined
      }
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name={name}
        defaultValue={value}
        placeholder={placeholder}
        onChange={enhanced ? searchSoon : undefined}
      />
      {children}
      {Object.entries(keep ?? {}).map(([key, kept]) => (kept ? <input key={key} type="hidden" name={key} value={kept} /> : null))}
      <button type="submit">{t("admin.common.search")}</button>
    </Form>
  );
}

/** A list's filter as links (one is the current page): works without JavaScript, and each can be bookmarked. */
export function AdminSegments({
  label,
  segments,
}: {
  label: string;
  segments: ReadonlyArray<{ key: string; href: string; current: boolean; label: ReactNode }>;
}) {
  return (
    <nav className="admin-segments" aria-label={label}>
      {segments.map((segment) => (
        <Link key={segment.key} to={segment.href} aria-current={segment.current ? "page" : undefined}>
          {segment.label}
        </Link>
      ))}
    </nav>
  );
}

/** A row's "Delete" link: opens the list's confirmation dialog by the address. */
export function DeleteLink({ to, name }: { to: string; name: string }) {
  const t = useT();
  return (
    <Link to={to} className="admin-link--danger" aria-label={t("admin.common.deleteName", { name })} preventScrollReset>
      {t("admin.common.delete")}
    </Link>
  );
}

/** The confirmation of a delete (one item or a selection): a dialog chosen by the address. */
export function AdminConfirmDialog({
  id,
  title,
  closeTo,
  ...form
}: { id: string; title: ReactNode; closeTo: string } & Omit<ComponentProps<typeof ConfirmForm>, "cancelTo">) {
  return (
    <AdminDialog id={id} title={title} closeTo={closeTo}>
      <ConfirmForm {...form} cancelTo={closeTo} />
    </AdminDialog>
  );
}
