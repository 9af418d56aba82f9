// Files imported `with { type: "text" }` or `{ type: "file" }`: Bun embeds them in the executable.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.png" {
  const path: string;
  export default path;
}
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
declare module "spdx-license-list/spdx-full.json" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const text: string;
  export default text;
}
declare module "*/assets/lines.js" {
  const text: string;
  export default text;
}
