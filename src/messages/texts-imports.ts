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
  importTooManyRows: [
    'The file has more than {max} rows (its header row included): split it into smaller files',
    'O ficheiro tem mais de {max} linhas (incluindo a de cabeçalho): divida-o em ficheiros mais pequenos',
    'El archivo tiene más de {max} filas (incluida la de encabezado): divídalo en archivos más pequeños',
  ],
  importRowTooWide: [
    'Row {row} has more than {max} cells',
    'A linha {row} tem mais de {max} células',
    'La fila {row} tiene más de {max} celdas',
  ],
  importRecordTooLong: [
    'Row {row} is longer than {max} characters',
    'A linha {row} tem mais de {max} caracteres',
    'La fila {row} tiene más de {max} caracteres',
  ],
  importXlsxColumn: [
    'Cell {reference} is beyond the last column of a worksheet ({max})',
    'A célula {reference} está para lá da última coluna de uma folha ({max})',
    'La celda {reference} está más allá de la última columna de una hoja ({max})',
  ],
  importXlsxSharedStrings: [
    'The workbook has more than {max} shared strings',
    'O livro tem mais de {max} cadeias partilhadas',
    'El libro tiene más de {max} cadenas compartidas',
  ],
  importXlsxSharedText: [
    'The shared strings of the workbook hold more than {max} characters',
    'As cadeias partilhadas do livro têm mais de {max} caracteres',
    'Las cadenas compartidas del libro tienen más de {max} caracteres',
  ],
  importXlsxNodeTooLong: [
    'The workbook holds an XML text or tag longer than {max} characters',
    'O livro contém um texto ou etiqueta XML com mais de {max} caracteres',
    'El libro contiene un texto o etiqueta XML de más de {max} caracteres',
  ],
  importFileNotOwn: [
    'The file {key} is not the file stored for this import: an import reads only its own file',
    'O ficheiro {key} não é o ficheiro guardado para esta importação: uma importação só lê o seu próprio ficheiro',
    'El archivo {key} no es el archivo guardado para esta importación: una importación solo lee su propio archivo',
  ],
  importFileNameFixed: [
    '{field} of a file import is the file stored for it ({value}): it cannot name another file',
    '{field} de uma importação de ficheiro é o ficheiro guardado para ela ({value}): não pode indicar outro ficheiro',
    '{field} de una importación de archivo es el archivo guardado para ella ({value}): no puede indicar otro archivo',
  ],
  importFailuresCut: [
    '{count} more failed rows of this part of the file are not listed: the failures kept per part hold at most {max} characters',
    'Mais {count} linhas com falhas desta parte do ficheiro não são listadas: as falhas guardadas por parte têm no máximo {max} caracteres',
    'Otras {count} filas con errores de esta parte del archivo no se listan: los errores guardados por parte tienen como máximo {max} caracteres',
  ],
  importChunkTooLarge: [
    'A part of the file is too large to store at once ({detail})',
    'Uma parte do ficheiro é demasiado grande para guardar de uma vez ({detail})',
    'Una parte del archivo es demasiado grande para guardarla de una vez ({detail})',
  ],
  importStepFailed: [
    'Processing stopped: a step failed {attempts} times ({detail})',
    'O processamento parou: um passo falhou {attempts} vezes ({detail})',
    'El procesamiento se detuvo: un paso falló {attempts} veces ({detail})',
  ],
} as const;
