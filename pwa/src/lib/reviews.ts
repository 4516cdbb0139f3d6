// Reviews (docs/orders.md): read with the product page, written by a buyer
// for a product of a delivered order. Both need a connection.
import { api } from './api';

export interface Review {
  product_id: number;
  author: string;
  rating: number;
  comment: string;
  created_at: string;
  updated_at: string;
}

export const fetchReviews = (productId: number) =>
  api<{ data: Review[] }>(`/products/${productId}/reviews`).then((r) => r.data);

export const writeReview = (productId: number, rating: number, comment: string) =>
  api<{ data: Review }>(`/products/${productId}/review`, { method: 'PUT', json: { rating, comment } }).then(
    (r) => r.data,
  );
