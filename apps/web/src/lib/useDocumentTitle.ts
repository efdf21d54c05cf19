import { useEffect } from 'react';

/** Sets the tab title to "<title> · SimDock" while the calling page is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = `${title} · SimDock`;
    return () => {
      document.title = before;
    };
  }, [title]);
}
