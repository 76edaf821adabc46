import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api/client";

/** The data controller and its address, from the server's settings (null if the server cannot say). */
export const privacyContactOptions = () =>
  queryOptions({
    queryKey: ["privacy-contact"],
    queryFn: async () => (await api.GET("/api/privacy-contact")).data ?? null,
    staleTime: Number.POSITIVE_INFINITY,
  });
