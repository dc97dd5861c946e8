import { type NotificationsProps, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

/**
 * Mantine's notifications, drawn from the first one shown (`notifications.show` anywhere): their
 * component (and its transitions) is a chunk of its own, which most screens never need at first
 * paint (issue 31). What is shown before it is loaded waits in Mantine's store and appears with it.
 */
export function NotificationsOnDemand(props: NotificationsProps) {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  ) : null;
}
