// `npm run build`: compiles the workspace packages to JavaScript (scripts/compile.mjs) and builds
// the console (apps/web/dist), whether or not they look up to date.
import { compileWorkspace } from './compile.mjs'
import { buildWeb } from './web-build.mjs'

await compileWorkspace()
buildWeb()
