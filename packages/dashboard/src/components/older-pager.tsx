/**
 * Pages of a newest-first list kept by a stack of cursors (`before`): back to the newest page,
 * or on to older items when the page on screen is full. Shared by every such list of the page.
 */
export function OlderPager({
  before,
  lastId,
  full,
  noun,
  onPage,
}: {
  before: readonly string[];
  lastId: string | undefined;
  full: boolean;
  noun: string;
  onPage(before: readonly string[]): void;
}) {
  return (
    <div class="pager">
      {before.length > 0 ? (
        <button type="button" class="secondary" onClick={() => onPage([])}>
          Newest {noun}
        </button>
      ) : null}
      {lastId !== undefined && full ? (
        <button type="button" class="secondary" onClick={() => onPage([...before, lastId])}>
          Older {noun}
        </button>
      ) : null}
    </div>
  );
}
