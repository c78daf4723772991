/** A pdfmake document node: text, a list of nodes, or a node object. */
export type Content = string | Content[] | { [key: string]: unknown };
