import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { auth } from '../../api/auth.ts';
import { brandQuery } from '../admin/frameQueries.ts';

/** The seller's name and logo (GET /api/organisation/brand): the buyer portal's header. */
export function useBrand(enabled = true) {
  return useQuery({ ...brandQuery(), enabled });
}

/**
 * An image served behind the bearer token (an <img> cannot send it): fetched once as a blob and
 * shown from an object URL. A public URL (a guest link's logo) is fetched without a token.
 */
export function useImageUrl(url: string | null | undefined) {
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(() => {
    if (!url) return;
    let alive = true;
    let made: string | undefined;
    const token = auth.get().token;
    void fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
      .then((response) => (response.ok ? response.blob() : undefined))
      .then((blob) => {
        if (!alive || !blob) return;
        made = URL.createObjectURL(blob);
        setObjectUrl(made);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return url ? objectUrl : undefined;
}
