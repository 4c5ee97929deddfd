/**
 * The last step of every answer of the standard root: `OData-Version: 4.0`, and a problem+json error rewritten in the
 * OData JSON error format with the same status, headers, code and per-field messages:
 * `{"error": {"code", "message", "target", "details": [{"code", "message", "target"}]}}`.
 */

interface Problem {
  readonly title?: string;
  readonly detail?: string;
  readonly code?: string;
  readonly errors?: readonly { readonly path: string; readonly message: string }[];
}

/** The OData error body of a problem+json body (pure). */
export function toODataError(problem: Problem): { error: Record<string, unknown> } {
  const code = problem.code ?? 'InternalError';
  const fields = problem.errors ?? [];
  const [first] = fields;
  return {
    error: {
      code,
      message: problem.detail ?? problem.title ?? code,
      ...(first ? { target: first.path } : {}),
      details: fields.map((field) => ({ code, message: field.message, target: field.path })),
    },
  };
}

/** The standard root's `finish`: every answer says its OData version; errors are OData errors. */
export async function finishServiceAnswer(response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/problem+json')) {
    const answer = new Response(response.body, response);
    answer.headers.set('OData-Version', '4.0');
    return answer;
  }
  const problem = (await response.json()) as Problem;
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('OData-Version', '4.0');
  return new Response(JSON.stringify(toODataError(problem)), { status: response.status, headers });
}
