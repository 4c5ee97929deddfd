/**
 * Messages about values and bodies, in en-US, pt-PT and es-ES (that order). `{name}` is a parameter; field and property
 * names are the API's own (camelCase) in every language.
 */
export const VALUE_TEXTS = {
  required: ['{field} is required', '{field} é obrigatório', '{field} es obligatorio'],
  mustBeString: ['{field} must be a string', '{field} tem de ser um texto', '{field} debe ser un texto'],
  mustNotBeEmpty: ['{field} must not be empty', '{field} não pode estar vazio', '{field} no puede estar vacío'],
  tooLong: [
    '{field} must be at most {max} characters',
    '{field} pode ter no máximo {max} caracteres',
    '{field} puede tener como máximo {max} caracteres',
  ],
  mustBeInteger: ['{field} must be an integer', '{field} tem de ser um número inteiro', '{field} debe ser un número entero'],
  integerRange: [
    '{field} must be an integer from {min} to {max}',
    '{field} tem de ser um número inteiro de {min} a {max}',
    '{field} debe ser un número entero de {min} a {max}',
  ],
  mustBeNumber: ['{field} must be a number', '{field} tem de ser um número', '{field} debe ser un número'],
  mustBeBoolean: [
    '{field} must be true or false (or 1 or 0)',
    '{field} tem de ser true ou false (ou 1 ou 0)',
    '{field} debe ser true o false (o 1 o 0)',
  ],
  mustBeDecimal: [
    '{field} must be a decimal number, such as 12.5',
    '{field} tem de ser um número decimal, como 12.5',
    '{field} debe ser un número decimal, como 12.5',
  ],
  mustBeDateTime: [
    '{field} must be an ISO 8601 date or date-time in the years 1900 to 9999 (UTC), such as 2026-01-31 or 2026-01-31T10:00:00Z',
    '{field} tem de ser uma data ou data e hora ISO 8601 nos anos 1900 a 9999 (UTC), como 2026-01-31 ou 2026-01-31T10:00:00Z',
    '{field} debe ser una fecha o fecha y hora ISO 8601 en los años 1900 a 9999 (UTC), como 2026-01-31 o 2026-01-31T10:00:00Z',
  ],
  mustBeGuid: [
    '{field} must be a GUID, such as 0f8fad5b-d9cb-469f-a165-70867728950e',
    '{field} tem de ser um GUID, como 0f8fad5b-d9cb-469f-a165-70867728950e',
    '{field} debe ser un GUID, como 0f8fad5b-d9cb-469f-a165-70867728950e',
  ],
  mustBeOneOf: ['{field} must be one of {choices}', '{field} tem de ser um de {choices}', '{field} debe ser uno de {choices}'],
  mustBeObject: ['{field} must be a JSON object', '{field} tem de ser um objeto JSON', '{field} debe ser un objeto JSON'],
  mustBeStringList: [
    '{field} must be an array of strings',
    '{field} tem de ser uma lista de textos',
    '{field} debe ser una lista de textos',
  ],
  mustNotBeEmptyList: [
    '{field} must name at least one item',
    '{field} tem de indicar pelo menos um elemento',
    '{field} debe indicar al menos un elemento',
  ],
  tooManyItems: [
    '{field} may name at most {max} items',
    '{field} pode indicar no máximo {max} elementos',
    '{field} puede indicar como máximo {max} elementos',
  ],
  notValid: ['{field} is not valid', '{field} não é válido', '{field} no es válido'],
  unknownProperty: [
    '{field} is not a property of this request: remove it or correct its name',
    '{field} não é uma propriedade deste pedido: remova-a ou corrija o nome',
    '{field} no es una propiedad de esta solicitud: elimínela o corrija su nombre',
  ],
  sameProperty: [
    '{names} name the same property {field}: send it once',
    '{names} designam a mesma propriedade {field}: envie-a uma só vez',
    '{names} designan la misma propiedad {field}: envíela una sola vez',
  ],
  bodyRequired: ['The request needs a JSON body', 'O pedido precisa de um corpo JSON', 'La solicitud necesita un cuerpo JSON'],
  bodyMalformed: [
    'The body is not valid JSON: correct its syntax',
    'O corpo não é JSON válido: corrija a sintaxe',
    'El cuerpo no es JSON válido: corrija la sintaxis',
  ],
  bodyMustBeObject: ['The body must be a JSON object', 'O corpo tem de ser um objeto JSON', 'El cuerpo debe ser un objeto JSON'],
  bodyMustBeArray: [
    'The body must be a JSON array of {items}',
    'O corpo tem de ser uma lista JSON de {items}',
    'El cuerpo debe ser una lista JSON de {items}',
  ],
  tooManyInBody: [
    'Send at most {max} {items} per request (this one has {count})',
    'Envie no máximo {max} {items} por pedido (este tem {count})',
    'Envíe como máximo {max} {items} por solicitud (esta tiene {count})',
  ],
  badEncoding: [
    '{field} is not valid percent-encoding',
    '{field} não tem uma codificação percentual válida',
    '{field} no tiene una codificación porcentual válida',
  ],
  addressPattern: [
    '{field} must be 1 to 64 letters, digits, _, . or -, starting with a letter or digit',
    '{field} tem de ter 1 a 64 letras, algarismos, _, . ou -, a começar por letra ou algarismo',
    '{field} debe tener de 1 a 64 letras, dígitos, _, . o -, empezando por una letra o un dígito',
  ],
  keyNotIntegerOrGuid: [
    "'{value}' is neither an integer {field} nor a GUID id",
    "'{value}' não é um {field} inteiro nem um id GUID",
    "'{value}' no es un {field} entero ni un id GUID",
  ],
  keyMustBeInteger: [
    "{field} must be an integer, not '{value}'",
    "{field} tem de ser um número inteiro, não '{value}'",
    "{field} debe ser un número entero, no '{value}'",
  ],
  repeatedKey: [
    "Key '{key}' appears more than once in the body: send each key once",
    "A chave '{key}' aparece mais de uma vez no corpo: envie cada chave uma só vez",
    "La clave '{key}' aparece más de una vez en el cuerpo: envíe cada clave una sola vez",
  ],
  alreadyExists: [
    "{field} '{value}' is already used by another record: choose another",
    "{field} '{value}' já é usado por outro registo: escolha outro",
    "{field} '{value}' ya lo usa otro registro: elija otro",
  ],
} as const;
