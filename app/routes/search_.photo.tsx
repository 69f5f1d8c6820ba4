import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { PageLink } from "~/components/ui/page-link";
import { ErrorPage } from "~/components/ui/error-page";
import { PhotoPicker } from "~/components/storefront/photo-picker";
import { PhotoMatches, type PhotoMatchCard } from "~/components/storefront/photo-matches";
import { SubmitButton } from "~/components/ui/submit-button";
import { ApiError } from "~/lib/api.server";
import { pageMeta } from "~/lib/meta";
import { useI18n } from "~/i18n/i18n";
import { sharedPageHeaders } from "~/lib/shared-answers.server";
import { PHOTO_SEARCH_ACCEPT, PHOTO_SEARCH_MESSAGES as M } from "~/schemas/photo-search-rules";
import { searchBySimilarPicture, searchByUploadedPhoto, type PhotoSearchAnswer } from "~/controllers/photo-search.server";
import { productCards } from "~/controllers/product-page.server";

type Results = { items: PhotoMatchCard[]; nothingClose: boolean };

async function toResults(answer: PhotoSearchAnswer): Promise<Results> {
  const cards = await productCards(answer.items.map((item) => item.product));
  return {
    items: answer.items.map((item, at) => ({ card: cards[at], score: item.score, image: item.imageUrl })),
    nothingClose: answer.nothingClose,
  };
}

/**
 * /search/photo: the form (a file input: works without JavaScript), and "find similar"
 * from one of the catalogue's pictures (?image=<its address>), the same for every visitor.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const image = new URL(request.url).searchParams.get("image")?.slice(0, 2000) ?? "";
  if (!image) return { image: "", results: null, notIndexed: false };
  const answer = await searchBySimilarPicture(image);
  return { image, results: answer ? await toResults(answer) : null, notIndexed: answer === null };
}

export const headers = sharedPageHeaders;

type ActionData = { error: string } | { results: Results };

/** A posted photo (multipart field `image`): its matches, or what is wrong with the file. */
export async function action({ request, context }: ActionFunctionArgs) {
  try {
    return { results: await toResults(await searchByUploadedPhoto(request, String(context.clientIp ?? ""))) } satisfies ActionData;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return data({ error: error.message } satisfies ActionData, { status: error.status });
    throw error;
  }
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { titleKey: "shop.photoSearch.title", noindex: true });

export default function PhotoSearchPage() {
  const { image, results: similar, notIndexed } = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, message } = useI18n();
  const error = answered && "error" in answered ? answered.error : null;
  const results = answered && "results" in answered ? answered.results : similar;
  const searching = navigation.state === "submitting" && navigation.formAction?.startsWith("/search/photo");
  return (
    <section className="photo-search" aria-labelledby="photo-search-title">
      <h1 id="photo-search-title">{t("shop.photoSearch.title")}</h1>
      <p className="muted">{t("shop.photoSearch.intro")}</p>
      <Form
        method="post"
        action="/search/photo"
        encType="multipart/form-data"
        className="photo-search__form"
        aria-busy={searching || undefined}
      >
        <PhotoPicker name="image" accept={PHOTO_SEARCH_ACCEPT} error={error ? message(error) : null} />
        <SubmitButton pendingText={t("shop.photoSearch.searching")}>{t("shop.photoSearch.submit")}</SubmitButton>
      </Form>
      {notIndexed ? (
        <p className="notice notice--info" role="status">
          {message(M.notIndexed)}
        </p>
      ) : null}
      {image && similar ? (
        <p className="photo-search__from">
          <img src={image} alt="" width={64} height={64} />
          {t("shop.photoSearch.similarTo")}
        </p>
      ) : null}
      {results ? (
        results.nothingClose ? (
          <div className="empty-state" role="status">
            <h2>{t("shop.photoSearch.nothingClose")}</h2>
            <p>{t("shop.photoSearch.nothingCloseHelp")}</p>
            <form method="get" action="/search" className="site-search" role="search">
              <label className="visually-hidden" htmlFor="photo-search-text">
                {t("shop.photoSearch.textSearch")}
              </label>
              <input id="photo-search-text" name="q" type="search" placeholder={t("shop.home.searchPlaceholder")} />
              <button type="submit">{t("shop.photoSearch.textSearch")}</button>
            </form>
            <p>
              <PageLink to="/import">{t("shop.photoSearch.pasteLink")}</PageLink>
            </p>
          </div>
        ) : (
          <>
            <h2>{t("shop.photoSearch.results", { count: results.items.length })}</h2>
            <PhotoMatches items={results.items} />
          </>
        )
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
