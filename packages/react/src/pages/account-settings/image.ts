// The avatar a person picks, made small enough to store in the user as a data URL (WIRE.md §1.6: png, jpeg, gif or
// webp, at most 512 KiB): cropped to a square of at most 256×256 on a canvas; where there is no canvas, the file as
// it is if it already fits.
export const MAX_SIDE = 256;
export const MAX_DATA_URL_LENGTH = 512 * 1024;
const STORABLE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

export type ImageOutcome = { dataUrl: string } | { problem: "notImage" | "tooLarge" | "unreadable" };

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Crops the image to its central square and scales that to at most MAX_SIDE, as avatars are shown in a square (or a
 * circle); null when the browser cannot draw (no canvas, or the image is unreadable).
 */
async function resized(file: File): Promise<string | null> {
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d");
  if (!context || typeof createImageBitmap !== "function") return null;
  const bitmap = await createImageBitmap(file);
  const square = Math.min(bitmap.width, bitmap.height);
  const side = Math.max(1, Math.min(square, MAX_SIDE));
  canvas.width = side;
  canvas.height = side;
  const left = (bitmap.width - square) / 2;
  const top = (bitmap.height - square) / 2;
  context.drawImage(bitmap, left, top, square, square, 0, 0, side, side);
  bitmap.close();
  return canvas.toDataURL("image/png");
}

export async function avatarDataUrl(file: File): Promise<ImageOutcome> {
  if (!file.type.startsWith("image/")) return { problem: "notImage" };
  let dataUrl: string | null;
  try {
    dataUrl = await resized(file);
  } catch {
    return { problem: "unreadable" };
  }
  if (dataUrl === null) {
    if (!STORABLE_TYPES.includes(file.type)) return { problem: "notImage" };
    // Checked before reading: base64 makes the text a third longer than the file.
    if (Math.ceil(file.size / 3) * 4 > MAX_DATA_URL_LENGTH) return { problem: "tooLarge" };
    dataUrl = await readAsDataUrl(file);
  }
  return dataUrl.length > MAX_DATA_URL_LENGTH ? { problem: "tooLarge" } : { dataUrl };
}
