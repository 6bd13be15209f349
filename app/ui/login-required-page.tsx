import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { UserIcon } from "./icons";

/** The 401 page (docs/rules.md#accounts): log in, then come back here. */
export function LoginRequiredPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const locale = localeOfPath(pathname);
  const loginHref = `${localizedHref("/login-register", locale)}?${new URLSearchParams({ redirectTo: `${pathname}${search}` })}`;
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <span className="mx-auto grid size-16 place-items-center rounded-full bg-brand-50 text-brand-700">
        <UserIcon size={32} />
      </span>
      <h1 className="mt-6 text-3xl font-bold">{t("loginRequired.title")}</h1>
      <p className="mt-4 text-muted">{t("loginRequired.body")}</p>
      <Link to={loginHref} className="btn-primary mt-8">
        {t("loginRequired.action")}
      </Link>
    </div>
  );
}
