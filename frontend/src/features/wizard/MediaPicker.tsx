import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { type ChangeEvent, useId } from "react";
import { TextField } from "@/components/TextField";
import { CoverImage } from "@/features/campaigns/CoverImage";
import { errorMessage } from "@/lib/api/client";
import { youtubeVideoId } from "@/lib/youtube";
import { uploadMedia } from "./api";
import { type CoverValues, isVideoUrl } from "./rules";

// The limits of backend/campaigns/uploads.py, checked here first to spare a long upload; the server
// decides by the file's content.
const MAX_BYTES = 25 * 1024 * 1024;
const ACCEPTED_TYPES = ["image/jpeg", "image/png", "image/gif", "video/mp4", "video/webm"];

type Props = {
  value: CoverValues;
  onChange(patch: Partial<CoverValues>): void;
  errors: { mediaUrl?: string; youtubeUrl?: string };
};

/** The cover: a file uploaded to the server (with a preview), or a YouTube link (with its thumbnail). */
export function MediaPicker({ value, onChange, errors }: Props) {
  const { t } = useLingui();
  const fileId = useId();
  const videoId = value.mediaType === "youtube" ? youtubeVideoId(value.youtubeUrl) : null;

  const upload = useMutation({
    mutationFn: async (file: File) => {
      if (file.size > MAX_BYTES) throw new Error(t`File size must not exceed 25MB`);
      if (file.type && !ACCEPTED_TYPES.includes(file.type)) {
        throw new Error(t`Only JPG, GIF, PNG images and MP4, WebM videos are allowed`);
      }
      return uploadMedia(file);
    },
    onSuccess: (media) => onChange({ mediaUrl: media.url }),
  });

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) upload.mutate(file);
  }

  return (
    <div className="space-y-5">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">
          <Trans>Cover media</Trans>
        </legend>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ["upload", t`Upload from this device`],
              ["youtube", t`YouTube link`],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className="flex items-center gap-2 text-slate-800">
              <input
                type="radio"
                name="mediaType"
                value={kind}
                checked={value.mediaType === kind}
                onChange={() => onChange({ mediaType: kind })}
                className="h-4 w-4 accent-brand-700"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>

      {value.mediaType === "upload" ? (
        <div>
          <label htmlFor={fileId} className="mb-1 block text-sm font-medium text-slate-800">
            <Trans>Photo or video</Trans>
          </label>
          <input
            id={fileId}
            type="file"
            accept=".jpg,.jpeg,.png,.gif,.mp4,.webm,image/jpeg,image/png,image/gif,video/mp4,video/webm"
            onChange={chooseFile}
            disabled={upload.isPending}
            aria-invalid={errors.mediaUrl ? true : undefined}
            aria-describedby={`${fileId}-hint${errors.mediaUrl ? ` ${fileId}-error` : ""}`}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:font-semibold file:text-brand-800"
          />
          <p id={`${fileId}-hint`} className="mt-1 text-sm text-slate-600">
            <Trans>JPG, PNG or GIF images, MP4 or WebM videos, up to 25 MB.</Trans>
          </p>
          {upload.isPending && (
            <p role="status" className="mt-2 text-sm text-slate-700">
              <Trans>Uploading...</Trans>
            </p>
          )}
          {upload.isError && (
            <p role="alert" className="mt-2 rounded-md bg-red-50 p-3 text-sm text-red-800">
              {errorMessage(upload.error, upload.error.message)}
            </p>
          )}
          {errors.mediaUrl && !upload.isError && (
            <p id={`${fileId}-error`} className="mt-1 text-sm text-red-700">
              {errors.mediaUrl}
            </p>
          )}
          {value.mediaUrl && (
            <figure className="mt-4 overflow-hidden rounded-lg border border-slate-200">
              {isVideoUrl(value.mediaUrl) ? (
                <CoverVideo src={value.mediaUrl} />
              ) : (
                <CoverImage src={value.mediaUrl} alt={t`Cover preview`} />
              )}
              <figcaption className="px-3 py-2 text-sm text-slate-600">
                <Trans>Preview</Trans>
              </figcaption>
            </figure>
          )}
        </div>
      ) : (
        <div>
          <TextField
            label={t`YouTube link`}
            type="url"
            inputMode="url"
            placeholder="https://www.youtube.com/watch?v="
            value={value.youtubeUrl}
            onChange={(event) => onChange({ youtubeUrl: event.target.value })}
            error={errors.youtubeUrl}
          />
          {videoId && (
            <figure className="mt-4 overflow-hidden rounded-lg border border-slate-200">
              <CoverImage src={`https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`} alt={t`Video thumbnail`} />
              <figcaption className="px-3 py-2 text-sm text-slate-600">
                <Trans>Preview</Trans>
              </figcaption>
            </figure>
          )}
        </div>
      )}
    </div>
  );
}

/** The chosen cover on a review screen. */
export function CoverPreview({ value }: { value: CoverValues }) {
  const { t } = useLingui();
  const videoId = value.mediaType === "youtube" ? youtubeVideoId(value.youtubeUrl) : null;
  if (videoId) {
    return <CoverImage src={`https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`} alt={t`Video thumbnail`} />;
  }
  if (value.mediaType === "upload" && isVideoUrl(value.mediaUrl)) {
    return <CoverVideo src={value.mediaUrl} />;
  }
  return <CoverImage src={value.mediaType === "upload" ? value.mediaUrl : ""} alt={t`Cover preview`} />;
}

const videoClass = "aspect-video w-full bg-black";

function CoverVideo({ src }: { src: string }) {
  // biome-ignore lint/a11y/useMediaCaption: the organizer's own cover video, previewed before launch
  return <video src={src} controls preload="metadata" className={videoClass} />;
}
