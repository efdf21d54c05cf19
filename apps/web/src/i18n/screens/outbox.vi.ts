import type { outboxEn } from './outbox.ts';

/** The Vietnamese texts of `outbox.ts`. */
export const outboxVi: Record<keyof typeof outboxEn, string> = {
  'outbox.title': 'Hộp thư đi (thư chưa gửi)',
  'outbox.description':
    'Chưa đặt SMTP_URL nên máy chủ demo này giữ các thư lẽ ra sẽ gửi tại đây (nhật ký chỉ ghi nhận có thư, không bao giờ ghi nội dung). Đặt SMTP_URL để gửi thư.',
  'outbox.empty': 'Chưa có thư nào. Một yêu cầu đặt lại mật khẩu sẽ tạo thư ở đây.',
  'outbox.to': 'Đến: {to}',
  'outbox.loadFailed': 'Không tải được hộp thư đi',
};
