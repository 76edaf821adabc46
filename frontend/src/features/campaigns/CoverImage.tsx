import { useState } from "react";
import type { Campaign } from "./api";
import { FALLBACK_COVER } from "./links";

type Props = {
  src: string;
  alt: string;
  /** The picture's WebP renditions (an uploaded cover's), for the browser to pick by the width shown. */
  srcset?: Campaign["cover_srcset"];
  /** How wide it is shown, for picking among `srcset`. */
  sizes?: string;
  lazy?: boolean;
  className?: string;
};

/** A 16:9 campaign cover; a missing or broken picture shows the fallback cover instead. */
export function CoverImage({ src, alt, srcset = [], sizes = "100vw", lazy = false, className = "" }: Props) {
  const [broken, setBroken] = useState<string | null>(null);
  const showing = Boolean(src) && src !== broken;
  const renditions = showing && srcset.length > 0;
  return (
    <img
      src={showing ? src : FALLBACK_COVER}
      srcSet={renditions ? srcset.map(({ url, width }) => `${url} ${width}w`).join(", ") : undefined}
      sizes={renditions ? sizes : undefined}
      alt={alt}
      width={640}
      height={360}
      loading={lazy ? "lazy" : "eager"}
      fetchPriority={lazy ? "auto" : "high"}
      decoding="async"
      onError={() => setBroken(src)}
      className={`aspect-video w-full bg-slate-100 object-cover ${className}`}
    />
  );
}
