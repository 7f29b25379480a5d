/**
 * supertest, with every answer checked against the administration API's OpenAPI document: a
 * status the document does not list for the operation, a body that breaks its schema (strict:
 * no unknown fields), or a 405 without the right `Allow` fails the request's promise, so drift
 * between the server and its document fails the test that met it.
 *
 * @example
 * const res = await request(app).post(`${API}/crontabs`).set(auth()).send(body); // rejects on drift
 */
import { checkedSupertest } from '@fw/test-support';
import { buildOpenApiDocument, makeResponseContract, type ResponseContract } from '../src';
import { API } from './support';

export const DOCUMENT = buildOpenApiDocument(API);
export const CONTRACT: ResponseContract = makeResponseContract(DOCUMENT);

/** supertest checked against the administration API's document. */
export const request = checkedSupertest(CONTRACT, 'the OpenAPI document');
