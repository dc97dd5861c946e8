import { useTranslation } from 'react-i18next';
import { useApiAction } from '../api/mutation.ts';
import { problemFields, problemMessage } from './problem.ts';

/**
 * Submitting a form to the API: the API validates, and its problem+json pointers ("/name",
 * "/email") come back as field errors shown under the matching input; any other reason is shown
 * as the form's error. Both in the user's language (ui/problem.ts), worked out at each render so a
 * language switch translates an error already shown. The call runs as the app's one mutation
 * (api/mutation.ts): the success notification, the refusal kept until the next submit.
 */
export function useApiForm() {
  const { t } = useTranslation();
  const action = useApiAction();
  const { error } = action;
  const fields = problemFields(error, t);
  return {
    busy: action.busy !== undefined,
    formError: error === undefined ? undefined : problemMessage(error, t),
    error: (pointer: string) => fields[pointer],
    fields,
    submit: <T>(call: () => Promise<T>, success?: string): Promise<T | undefined> =>
      action.run('form', call, success),
  };
}
