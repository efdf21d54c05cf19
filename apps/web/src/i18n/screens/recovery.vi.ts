import type { recoveryEn } from './recovery.ts';

/** The Vietnamese texts of `recovery.ts`. */
export const recoveryVi: Record<keyof typeof recoveryEn, string> = {
  'recovery.forgotTitle': 'Quên mật khẩu?',
  'recovery.forgotSubtitle': 'Nhập tên đăng nhập hoặc email để yêu cầu liên kết đặt mật khẩu mới.',
  'recovery.login': 'Tên đăng nhập hoặc email',
  'recovery.loginRequired': 'Hãy nhập tên đăng nhập hoặc email',
  'recovery.send': 'Gửi liên kết đặt lại',
  'recovery.sending': 'Đang gửi…',
  'recovery.sent':
    'Nếu có tài khoản phù hợp, chúng tôi đã gửi liên kết đặt lại mật khẩu. Hãy kiểm tra email (cả thư mục spam). Liên kết có hiệu lực trong 30 phút.',
  'recovery.noMail': 'Máy chủ này không gửi được email.',
  'recovery.outboxTitle': 'Chưa có email nào được gửi: máy chủ này chưa được cấu hình gửi thư.',
  'recovery.outbox':
    'Nếu có tài khoản phù hợp, liên kết đặt lại mật khẩu đã được giữ trong hộp thư đi của máy chủ, nơi quản trị viên xem được ở trang tổng quan quản trị. Hãy xin quản trị viên liên kết đó; liên kết có hiệu lực trong 30 phút.',
  'recovery.failed': 'Yêu cầu không thành công',
  'recovery.backToLogin': 'Quay lại đăng nhập',
  'recovery.resetTitle': 'Chọn mật khẩu mới',
  'recovery.resetSubtitle': 'Mật khẩu mới sẽ kết thúc mọi phiên đăng nhập bằng mật khẩu cũ.',
  'recovery.newPassword': 'Mật khẩu mới',
  'recovery.confirmPassword': 'Xác nhận mật khẩu mới',
  'recovery.save': 'Đặt mật khẩu mới',
  'recovery.saving': 'Đang lưu…',
  'recovery.linkInvalid': 'Liên kết này đã hết hạn hoặc đã được dùng. Hãy yêu cầu liên kết mới.',
  'recovery.checking': 'Đang kiểm tra liên kết…',
  'recovery.askAgain': 'Yêu cầu liên kết mới',
  'recovery.resetFailed': 'Mật khẩu chưa được đổi',
};
