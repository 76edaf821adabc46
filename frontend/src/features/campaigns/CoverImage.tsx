import { useState } from "react";
import { FALLBACK_COVER } from "./links";

type Props = { src: string; alt: string; lazy?: boolean; className?: string };

/** A 16:9 campaign cover; a missing or broken picture shows the fallback cover instead. */
export function CoverImage({ src, alt, lazy = false, className = "" }: Props) {
  const [broken, setBroken] = useState<string | null>(null);
  return (
    <img
      src={src && src !== broken ? src : FALLBACK_COVER}
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
