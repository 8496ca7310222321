/** The text of the downloaded file: one code per line. */
export function codesFileText(codes: string[]): string {
  return `${codes.join('\n')}\n`
}

/** The file is named after the codes' name, as `{name}.txt`. */
export function codesFileName(name: string): string {
  return `${name}.txt`
}

/** Saves the new codes through the browser's download, named after them. */
export function downloadCodes(name: string, codes: string[]): void {
  const url = URL.createObjectURL(new Blob([codesFileText(codes)], { type: 'text/plain;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = codesFileName(name)
  document.body.append(link)
  link.click()
  link.remove()
  // The download has started by the time click() returns; the address is not needed any more.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
