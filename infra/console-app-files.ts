import { crc32, deflateSync } from 'node:zlib';

/**
 * The web app manifest and icons that make the console installable (docs/console.md, "Push notifications"),
 * made at build time rather than kept as binaries: the icon is a red square with a white bar and dot (an
 * exclamation mark), drawn at each size.
 */
const RED = [0xb4, 0x23, 0x18] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** Whether a pixel, in units of the icon's size, is part of the exclamation mark. */
const inMark = (x: number, y: number): boolean => {
  const inColumn = Math.abs(x - 0.5) < 0.07;
  const bar = inColumn && y > 0.2 && y < 0.62;
  const dot = (x - 0.5) ** 2 + (y - 0.75) ** 2 < 0.075 ** 2;
  return bar || dot;
};

/** An RGB PNG of `size` x `size` (8 bits a channel, no filter). */
const iconPng = (size: number): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y += 1) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      const colour = inMark((x + 0.5) / size, (y + 0.5) / size) ? WHITE : RED;
      rows.set(colour, row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/** Relative URLs: the manifest is served at the console's root, under any stage prefix. */
const webAppManifest = (): Buffer =>
  Buffer.from(
    JSON.stringify({
      name: 'Incident console',
      short_name: 'Incidents',
      start_url: './incidents',
      scope: './',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#b42318',
      icons: [192, 512].map((size) => ({
        src: `icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: 'any',
      })),
    }),
    'utf8',
  );

/** The files besides esbuild's output, by their served names. */
export const appFiles = (): [name: 'manifest.webmanifest' | 'icon-192.png' | 'icon-512.png', body: Buffer][] => [
  ['manifest.webmanifest', webAppManifest()],
  ['icon-192.png', iconPng(192)],
  ['icon-512.png', iconPng(512)],
];
