import { deflateRawSync } from "node:zlib";

/** A ustar archive of `files` (name → content), by hand; names longer than 100 bytes use GNU's `L` entry. */
export function tarOf(files: [name: string, content: string | Uint8Array, type?: string][]): Uint8Array {
  const blocks: Uint8Array[] = [];
  const header = (name: string, size: number, type: string) => {
    const h = new Uint8Array(512);
    const put = (s: string, at: number) => h.set(new TextEncoder().encode(s), at);
    put(name.slice(0, 99), 0);
    put("0000644\0", 100);
    put("0000000\0", 108);
    put("0000000\0", 116);
    put(size.toString(8).padStart(11, "0") + "\0", 124);
    put("00000000000\0", 136);
    put("        ", 148);
    put(type, 156);
    put("ustar\0" + "00", 257);
    const sum = h.reduce((a, b) => a + b, 0);
    put(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    return h;
  };
  const pad = (n: number) => new Uint8Array((512 - (n % 512)) % 512);
  for (const [name, content, type = "0"] of files) {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const nameBytes = new TextEncoder().encode(name);
    if (nameBytes.length > 99) {
      blocks.push(header("././@LongLink", nameBytes.length + 1, "L"), nameBytes, new Uint8Array(1), pad(nameBytes.length + 1));
    }
    blocks.push(header(name, bytes.length, type), bytes, pad(bytes.length));
  }
  blocks.push(new Uint8Array(1024));
  return Buffer.concat(blocks);
}

/** A zip of `files`, stored or deflated, with its central directory; by hand. */
export function zipOf(files: [name: string, content: Uint8Array][], method: 0 | 8 = 8): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const nameBytes = new TextEncoder().encode(name);
    const data = method === 8 ? deflateRawSync(content) : content;
    const crc = Bun.hash.crc32(content);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, method, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, content.length, true);
    local.setUint16(26, nameBytes.length, true);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint16(4, 20, true);
    cd.setUint16(6, 20, true);
    cd.setUint16(10, method, true);
    cd.setUint32(16, crc, true);
    cd.setUint32(20, data.length, true);
    cd.setUint32(24, content.length, true);
    cd.setUint16(28, nameBytes.length, true);
    cd.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, data);
    central.push(new Uint8Array(cd.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, cdBytes.length, true);
  end.setUint32(16, offset, true);
  return Buffer.concat([...parts, cdBytes, new Uint8Array(end.buffer)]);
}

/** A `.conda` as conda-package-handling lays it out: metadata.json, the pkg and info tar.zst members. */
export function condaOf(info: [name: string, content: string | Uint8Array][], opts: { method?: 0 | 8; infoName?: string } = {}): Uint8Array {
  const infoTar = Bun.zstdCompressSync(tarOf(info));
  const pkgTar = Bun.zstdCompressSync(tarOf([["lib/file.txt", "payload"]]));
  return zipOf(
    [
      ["metadata.json", new TextEncoder().encode('{"conda_pkg_format_version": 2}')],
      ["pkg-x.tar.zst", pkgTar],
      [opts.infoName ?? "info-x.tar.zst", infoTar],
    ],
    opts.method ?? 8,
  );
}

/** `bytes` compressed by the system's bzip2 (a Debian base package), as conda-build compresses a .tar.bz2. */
export function bzip2Of(bytes: Uint8Array): Uint8Array {
  const run = Bun.spawnSync(["bzip2", "-c", "-9"], { stdin: bytes });
  if (run.exitCode !== 0) throw new Error(`bzip2 failed: ${run.stderr.toString()}`);
  return new Uint8Array(run.stdout);
}

/** A `.tar.bz2` conda package: the info files and a payload file. */
export function tarBz2Of(info: [name: string, content: string | Uint8Array][]): Uint8Array {
  return bzip2Of(tarOf([["lib/file.txt", "payload"], ...info]));
}
