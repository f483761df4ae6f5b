import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { PageState, PageStore } from './page-store';

/*
 * The page store for components: the page that makes it provides it, and each component reads the
 * part it draws through a selector, re-rendering only when that part changes.
 */

export const PageStoreContext = createContext<PageStore | null>(null);

/** The page's store (for its `dispatch` and for reads outside rendering). */
export function usePageStore(): PageStore {
  const store = useContext(PageStoreContext);
  if (!store) throw new Error('usePageStore needs a PageStoreContext provider above it.');
  return store;
}

/** The part of the page state `selector` picks, kept in step with the store. */
export function usePage<T>(selector: (state: PageState) => T): T {
  return useStore(usePageStore(), selector);
}
