import { NotFoundState } from '../ui/states.tsx';

/** Any app URL that matches no screen. */
export default function NotFoundPage() {
  return <NotFoundState />;
}
