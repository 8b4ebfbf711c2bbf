import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { dislikeTransferFile } from './dislike-transfer-file';
import { likeTransferFile } from './like-transfer-file';
import { type PackageFile, type PackageView, transferKeys, type Vote } from './transfer-keys';

export interface VoteInput {
  fileId: string;
  vote: Vote;
  /** true casts the vote (replacing the other one), false withdraws it. */
  on: boolean;
}

/** A file's counts once the caller's vote becomes `next`: what the server will answer, guessed at once. */
export function withVote(file: PackageFile, next: Vote | null): PackageFile {
  const count = (vote: Vote) => (file.myVote === vote ? -1 : 0) + (next === vote ? 1 : 0);
  return {
    ...file,
    likes: Math.max(0, file.likes + count('like')),
    dislikes: Math.max(0, file.dislikes + count('dislike')),
    myVote: next,
  };
}

function replaceFile(queryClient: QueryClient, transferId: string, fileId: string, change: (file: PackageFile) => PackageFile) {
  queryClient.setQueryData<PackageView>(transferKeys.package(transferId), (view) =>
    view ? { ...view, files: view.files.map((file) => (file.id === fileId ? change(file) : file)) } : view,
  );
}

/**
 * Likes and dislikes a package's files at once on screen; the server's answer replaces the guess,
 * and a refusal puts back what was there.
 */
export function useVoteFile(transferId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fileId, vote, on }: VoteInput) =>
      vote === 'like' ? likeTransferFile(transferId, fileId, on) : dislikeTransferFile(transferId, fileId, on),
    onMutate: async ({ fileId, vote, on }) => {
      const key = transferKeys.package(transferId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<PackageView>(key)?.files.find((file) => file.id === fileId);
      replaceFile(queryClient, transferId, fileId, (file) =>
        withVote(file, on ? vote : file.myVote === vote ? null : file.myVote),
      );
      return { before };
    },
    onError: (_error, { fileId }, context) => {
      const before = context?.before;
      if (before) replaceFile(queryClient, transferId, fileId, () => before);
    },
    onSuccess: ({ file }) => replaceFile(queryClient, transferId, file.id, () => file),
  });
}
