// Stylelint for the web client's style sheets: left and right are written as the start
// and end of a line (logical properties), so that a right-to-left language mirrors the
// page by its `dir` alone (docs/translating.md). Top and bottom stay as they are: no
// language this page may speak writes in vertical lines. `make lint` runs it.
export default {
  plugins: ["stylelint-use-logical"],
  rules: {
    "csstools/use-logical": [
      "always",
      { except: ["top", "bottom", /^(margin|padding|border)-(top|bottom)/i, /^(min-|max-)?(width|height)$/i] },
    ],
  },
};
