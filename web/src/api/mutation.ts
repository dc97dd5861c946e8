import { notifications } from '@mantine/notifications';
import {
  type MutationFunctionContext,
  type QueryKey,
  type UseMutationOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';

type Built<TData, TVariables, T> = T | ((data: TData, variables: TVariables) => T);

export type ApiMutationOptions<TData, TVariables, TOnMutateResult> = UseMutationOptions<
  TData,
  unknown,
  TVariables,
  TOnMutateResult
> & {
  /** The sentence of the green notification after success (none when undefined). */
  success?: Built<TData, TVariables, string | undefined>;
  /** The queries read again after success: keys (or prefixes) from the features' key factories. */
  invalidates?: Built<TData, TVariables, readonly QueryKey[]>;
};

const built = <TData, TVariables, T>(
  value: Built<TData, TVariables, T>,
  data: TData,
  variables: TVariables,
) => (typeof value === 'function' ? (value as (d: TData, v: TVariables) => T)(data, variables) : value);

/**
 * The app's one way to change something through the API: TanStack's `useMutation`, which after
 * success shows the notification (the caller's sentence) and reads the named queries again. A
 * refusal stays in `error` until the next call, for the screen's ErrorState or its field errors
 * (ui/problem.ts turns it into the user's words); `isPending` disables or spins the button.
 */
export function useApiMutation<TData = unknown, TVariables = void, TOnMutateResult = unknown>({
  success,
  invalidates,
  onSuccess,
  ...options
}: ApiMutationOptions<TData, TVariables, TOnMutateResult>) {
  const queryClient = useQueryClient();
  return useMutation<TData, unknown, TVariables, TOnMutateResult>({
    ...options,
    onSuccess: async (data, variables, onMutateResult, context: MutationFunctionContext) => {
      const message = built(success, data, variables);
      if (message) notifications.show({ color: 'teal', message });
      const keys = built(invalidates, data, variables) ?? [];
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await onSuccess?.(data, variables, onMutateResult, context);
    },
  });
}

type Call = { key: string; call: () => Promise<unknown>; success?: string };

/**
 * One-click actions of a screen (archive, revoke, move, submit) over `useApiMutation`: which one
 * is running (`busy`, the key it was given) and the last refusal, shown until the next action.
 * `run` resolves to the call's answer, or undefined when refused.
 */
export function useApiAction(options: { invalidates?: readonly QueryKey[] } = {}) {
  const mutation = useApiMutation<unknown, Call>({
    mutationFn: ({ call }) => call(),
    success: (_, { success }) => success,
    invalidates: options.invalidates,
  });
  return {
    error: mutation.error ?? undefined,
    busy: mutation.isPending ? mutation.variables?.key : undefined,
    clear: mutation.reset,
    async run<T>(key: string, call: () => Promise<T>, success?: string): Promise<T | undefined> {
      try {
        return (await mutation.mutateAsync({ key, call, success })) as T;
      } catch {
        return undefined;
      }
    },
  };
}
