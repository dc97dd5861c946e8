import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { auth, useAuth } from '../api/auth.ts';
import { refreshSession } from '../api/client.ts';
import { paths } from '../paths.ts';

/** Signed-in routes: on a reload, the session cookie gives a new token; else the sign-in page. */
export function RequireAuth() {
  const state = useAuth();
  const location = useLocation();
  useEffect(() => {
    if (state.status === 'unknown') {
      void refreshSession().then((ok) => {
        if (!ok) auth.set({ status: 'signed-out' });
      });
    }
  }, [state.status]);
  if (state.status === 'unknown' || (state.status === 'signed-in' && !state.me)) {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (state.status === 'signed-out') {
    return <Navigate to={paths.signIn} replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}
