import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/toast";
import { errorMessage } from "@/lib/api/client";
import { useSession } from "@/lib/session";
import { type Campaign, campaignKeys, setLiked } from "./api";

/**
 * The heart toggle. Signed-in users like and unlike (shown at once, undone if the server refuses);
 * visitors are asked to sign in. `ready` is false until the viewer's own liked_by_me has arrived.
 */
export function LikeButton({ campaign, ready }: { campaign: Campaign; ready: boolean }) {
  const { t } = useLingui();
  const session = useSession();
  const queryClient = useQueryClient();
  const key = campaignKeys.detail(campaign.id);
  const patch = (fields: Partial<Campaign>) =>
    queryClient.setQueryData<Campaign>(key, (current) => current && { ...current, ...fields });

  const like = useMutation({
    mutationFn: (liked: boolean) => setLiked(campaign.id, liked),
    onMutate: (liked) => patch({ liked_by_me: liked }),
    onSuccess: (result) => patch({ liked_by_me: result.liked, like_count: result.like_count }),
    onError: (error, liked) => {
      patch({ liked_by_me: !liked });
      toast({
        title: t`Error`,
        description: errorMessage(error),
        variant: "destructive",
      });
    },
  });

  const onClick = () => {
    if (!session.data?.user) {
      toast({ title: t`Please sign in to like campaigns` });
      return;
    }
    like.mutate(!campaign.liked_by_me);
  };

  const liked = campaign.liked_by_me;
  return (
    <button
      type="button"
      aria-pressed={liked}
      disabled={!ready || like.isPending}
      onClick={onClick}
      className={`inline-flex items-center gap-2 rounded-full border px-3 py-2 text-sm font-medium disabled:opacity-60 ${
        liked ? "border-rose-300 bg-rose-50 text-rose-700" : "border-slate-300 bg-white text-slate-700"
      } hover:border-rose-400`}
    >
      <svg
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill={liked ? "currentColor" : "none"}
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <path
          strokeLinejoin="round"
          d="M12 20s-7-4.4-9.2-9A5 5 0 0 1 12 6a5 5 0 0 1 9.2 5C19 15.6 12 20 12 20Z"
        />
      </svg>
      <Trans>Like</Trans>
      {/* Like counts are for admins only; the server sends null to everyone else. */}
      {campaign.like_count !== null && (
        <span className="border-l border-current pl-2">
          <Plural value={campaign.like_count} one="# like" other="# likes" />
        </span>
      )}
    </button>
  );
}
