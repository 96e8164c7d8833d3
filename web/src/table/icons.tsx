// Inline SVG icons: drawn the same on every system (the ⏮ ⏭ characters were empty boxes where
// the font had no such glyph). Decorative: the button around each names it (aria-label).
const PATHS: Record<string, string> = {
  first: 'M4 3h2v10H4zM13 3v10L7 8z',
  previous: 'M11 3v10L5 8z',
  next: 'M5 3v10l6-5z',
  last: 'M3 3v10l6-5zM10 3h2v10h-2z',
};

export function Icon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"
      focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
