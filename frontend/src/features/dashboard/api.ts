import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

export const DASHBOARD_KEY = ["dashboard"] as const;

/** The signed-in user's campaigns and totals on the dashboard. */
export const dashboardOptions = () =>
  queryOptions({
    queryKey: DASHBOARD_KEY,
    queryFn: async () => unwrap(await api.GET("/api/dashboard"), i18n._(msg`Failed to load dashboard data`)),
  });
