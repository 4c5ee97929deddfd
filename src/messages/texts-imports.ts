/** Messages about import files (POST /corePatterns/importDataInfos/files), in en-US, pt-PT and es-ES. */
export const IMPORT_TEXTS = {
  importUnknownTemplate: [
    '{field} {value} is not an import template: use one of {choices}',
    '{field} {value} não é um modelo de importação: use um de {choices}',
    '{field} {value} no es una plantilla de importación: use una de {choices}',
  ],
  importMediaType: [
    'Send the file as text/csv, application/x-ndjson, application/json (an array of objects) or .xlsx (received {value})',
    'Envie o ficheiro como text/csv, application/x-ndjson, application/json (uma lista de objetos) ou .xlsx (recebido {value})',
    'Envíe el archivo como text/csv, application/x-ndjson, application/json (una lista de objetos) o .xlsx (recibido {value})',
  ],
  importFileTooLarge: [
    'The file exceeds {max} bytes: split it into smaller files',
    'O ficheiro excede {max} bytes: divida-o em ficheiros mais pequenos',
    'El archivo supera {max} bytes: divídalo en archivos más pequeños',
  ],
  importFileEmpty: [
    'The file has no header row: its first row must name the columns',
    'O ficheiro não tem linha de cabeçalho: a primeira linha tem de indicar as colunas',
    'El archivo no tiene fila de encabezado: la primera fila debe indicar las columnas',
  ],
  importNotUtf8: [
    'The file is not valid UTF-8: save it as UTF-8 (with or without BOM)',
    'O ficheiro não é UTF-8 válido: guarde-o como UTF-8 (com ou sem BOM)',
    'El archivo no es UTF-8 válido: guárdelo como UTF-8 (con o sin BOM)',
  ],
  importMalformed: [
    'The file is not valid {format}: {detail}',
    'O ficheiro não é {format} válido: {detail}',
    'El archivo no es {format} válido: {detail}',
  ],
  importRowNotObject: [
    'Row {row} is not a JSON object: every item must be an object of column values',
    'A linha {row} não é um objeto JSON: cada elemento tem de ser um objeto de valores de colunas',
    'La fila {row} no es un objeto JSON: cada elemento debe ser un objeto de valores de columnas',
  ],
  importHeaderTooLong: [
    'The first row is longer than {max} bytes',
    'A primeira linha tem mais de {max} bytes',
    'La primera fila tiene más de {max} bytes',
  ],
  importXlsxTooLarge: [
    'The workbook decompresses to more than {max} bytes',
    'O livro descomprime para mais de {max} bytes',
    'El libro se descomprime en más de {max} bytes',
  ],
  importXlsxNoSheet: [
    'The workbook has no first worksheet (xl/worksheets/sheet1.xml)',
    'O livro não tem primeira folha (xl/worksheets/sheet1.xml)',
    'El libro no tiene primera hoja (xl/worksheets/sheet1.xml)',
  ],
  importUnknownColumn: [
    'Column {field} is not a column of template {template}: use one of {choices}',
    'A coluna {field} não é uma coluna do modelo {template}: use uma de {choices}',
    'La columna {field} no es una columna de la plantilla {template}: use una de {choices}',
  ],
  importMissingColumn: [
    'Template {template} needs the column {field}',
    'O modelo {template} precisa da coluna {field}',
    'La plantilla {template} necesita la columna {field}',
  ],
  importRepeatedColumn: [
    'Column {field} appears more than once: keep one',
    'A coluna {field} aparece mais de uma vez: mantenha uma',
    'La columna {field} aparece más de una vez: mantenga una',
  ],
  importEmptyColumn: [
    'Column {column} of the header row has no name',
    'A coluna {column} da linha de cabeçalho não tem nome',
    'La columna {column} de la fila de encabezado no tiene nombre',
  ],
  importNotUpdatable: [
    '{field} cannot be changed by an upsert: it has no update operation (stored: {value})',
    '{field} não pode ser alterado por um upsert: não tem operação de atualização (guardado: {value})',
    '{field} no se puede cambiar con un upsert: no tiene operación de actualización (guardado: {value})',
  ],
  importGroupDiffers: [
    '{field} differs from row {row}, the first row of document {number}: every row of a document repeats its values',
    '{field} difere da linha {row}, a primeira linha do documento {number}: cada linha de um documento repete os seus valores',
    '{field} difiere de la fila {row}, la primera fila del documento {number}: cada fila de un documento repite sus valores',
  ],
} as const;
