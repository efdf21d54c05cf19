import type { MessageKey } from './en.ts';
import { apikeyVi } from './screens/apikey.vi.ts';
import { appVi } from './screens/app.vi.ts';
import { chatVi } from './screens/chat.vi.ts';
import { errorCodesVi } from './screens/error-codes.vi.ts';
import { gatewaysVi } from './screens/gateways.vi.ts';
import { messagingVi } from './screens/messaging.vi.ts';
import { outboxVi } from './screens/outbox.vi.ts';
import { paymentsVi } from './screens/payments.vi.ts';
import { publicVi } from './screens/public.vi.ts';
import { rentalVi } from './screens/rental.vi.ts';
import { secondFactorVi } from './screens/second-factor.vi.ts';
import { servicesOrdersVi } from './screens/services-orders.vi.ts';
import { signedInVi } from './screens/signed-in.vi.ts';
import { usersVi } from './screens/users.vi.ts';

/**
 * The Vietnamese catalogue. Typed as a Record of the English keys: a missing key or an extra key is
 * a type error. The spec's Vietnamese messages are the entries of `rule.newPasswordMismatch`,
 * `userInfo.passwordChanged`, `userInfo.passwordChangeFailed` and `chat.updateFailed`.
 */
export const vi: Record<MessageKey, string> = {
  'app.name': 'SimDock',
  'app.tagline': 'Thuê số nhận OTP qua SMS và nhắn tin SMS/MMS',

  'common.pickDate': 'Chọn ngày',
  'common.loading': 'Đang tải…',
  'common.saving': 'Đang lưu…',
  'common.processing': 'Đang xử lý…',
  'common.cancel': 'Hủy',
  'common.close': 'Đóng',
  'common.confirm': 'Xác nhận',
  'common.delete': 'Xóa',
  'common.save': 'Lưu',
  'common.search': 'Tìm kiếm',
  'common.prev': 'Trước',
  'common.next': 'Sau',
  'common.pageOf': 'Trang {page} / {total}',
  'common.pageSize': 'Số dòng mỗi trang',
  'common.pagination': 'Phân trang',
  'common.about': '≈ {n}',
  'common.goToLastPage': 'Đến trang cuối ({page})',
  'common.goToPage': 'Đến trang {page}',
  'common.copy': 'Sao chép',
  'common.copyValue': 'Sao chép {value}',
  'common.copied': 'Đã sao chép',
  'common.dismiss': 'Đóng thông báo',
  'common.retry': 'Thử lại',
  'common.noData': 'Chưa có dữ liệu.',
  'common.sortBy': 'Sắp xếp theo {column}',
  'common.skipToContent': 'Chuyển đến nội dung',
  'common.lastUpdated': 'Cập nhật lần cuối: {date}',
  'common.backToDashboard': 'Về bảng điều khiển',
  'common.goHome': 'Về trang chủ',
  'common.goBack': 'Quay lại',
  'common.signIn': 'Đăng nhập',
  'common.yes': 'Có',
  'common.no': 'Không',

  'errors.unexpected': 'Đã xảy ra lỗi không mong muốn',
  'errors.unknownApi': 'Yêu cầu API thất bại với lỗi không xác định',
  'errors.pageTitle': 'Đã xảy ra lỗi',
  'errors.pageText': 'Không thể hiển thị trang này. Hãy tải lại trang hoặc quay về bảng điều khiển.',
  'errors.reload': 'Tải lại',
  'errors.userInfo': 'Không tải được thông tin tài khoản. Hãy kiểm tra kết nối và thử lại.',

  'nav.logout': 'Đăng xuất',
  'shell.language': 'Ngôn ngữ',
  'shell.themeToDark': 'Chuyển sang giao diện tối',
  'shell.themeToLight': 'Chuyển sang giao diện sáng',
  'lang.en': 'English',
  'lang.vi': 'Tiếng Việt',

  'landing.footer': '© {year} SimDock. Bảo lưu mọi quyền.',
  'landing.privacy': 'Chính sách quyền riêng tư',
  'landing.terms': 'Điều khoản dịch vụ',

  'login.title': 'Đăng nhập SimDock',
  'login.subtitle': 'Chào mừng trở lại. Nhập tên đăng nhập và mật khẩu.',
  'login.username': 'Tên đăng nhập',
  'login.password': 'Mật khẩu',
  'login.submit': 'Đăng nhập',
  'login.submitting': 'Đang đăng nhập…',
  'login.forgot': 'Quên mật khẩu?',
  'login.noAccount': 'Chưa có tài khoản?',
  'login.register': 'Tạo tài khoản',
  'login.failed': 'Đăng nhập thất bại',
  'login.sfTitle': 'Xác thực hai bước',
  'login.sfText': 'Nhập mã 6 chữ số từ ứng dụng xác thực của bạn.',
  'login.sfRecoveryText': 'Nhập một trong các mã khôi phục của bạn.',
  'login.sfCode': 'Mã',
  'login.sfRecoveryCode': 'Mã khôi phục',
  'login.sfUseRecovery': 'Dùng mã khôi phục',
  'login.sfUseApp': 'Dùng ứng dụng xác thực',
  'login.sfVerify': 'Xác minh',
  'login.sfAttemptsLeft': 'Mã không đúng. Số lần thử còn lại: {count}',
  'login.sfBack': 'Quay lại đăng nhập',
  'login.passwordReset': 'Mật khẩu của bạn đã được đổi. Hãy đăng nhập bằng mật khẩu mới.',
  'login.registered': 'Đăng ký thành công. Vui lòng đăng nhập.',
  'rule.usernameRequired': 'Vui lòng nhập tên đăng nhập',
  'rule.usernameFormat': 'Tên đăng nhập gồm 3-16 ký tự: chữ cái, chữ số hoặc dấu gạch dưới',
  'rule.emailRequired': 'Vui lòng nhập email',
  'rule.emailInvalid': 'Email không hợp lệ',
  'rule.passwordRequired': 'Vui lòng nhập mật khẩu',
  'rule.passwordTooShort': 'Mật khẩu phải có ít nhất 8 ký tự',
  'rule.passwordTooLong': 'Mật khẩu tối đa 256 ký tự',
  'rule.confirmRequired': 'Vui lòng xác nhận mật khẩu',
  'rule.passwordsMismatch': 'Mật khẩu không khớp',
  'rule.oldPasswordRequired': 'Vui lòng nhập mật khẩu cũ',
  'rule.newPasswordMismatch': 'Mật khẩu mới không khớp.',
  'rule.nameRequired': 'Vui lòng nhập tên',
  'rule.codeRequired': 'Vui lòng nhập mã',
  'rule.priceInvalid': 'Giá phải > 0',
  'rule.stockInvalid': 'Tồn kho phải ≥ 0',
  'rule.rentTimeInvalid': 'Thời gian thuê phải ≥ 0',
  'rule.priceTooHigh': 'Giá tối đa là 1.000.000',
  'rule.priceDecimals': 'Giá chỉ được có tối đa hai chữ số thập phân',
  'rule.stockTooHigh': 'Tồn kho tối đa là 1.000.000',
  'rule.rentTimeTooHigh': 'Thời gian thuê tối đa là 525.600 phút (một năm)',
  'rule.gatewayInvalid': 'Vui lòng nhập đúng tất cả các trường',
  'rule.invalidEmail': 'Email không hợp lệ',
  'rule.invalidRoles': 'Vai trò không hợp lệ',
  'rule.rolesRequired': 'Chọn ít nhất một vai trò',
  'rule.balanceInvalid': 'Số dư phải là số ≥ 0, tối đa bốn chữ số thập phân',

  'unauthorized.title': 'Bạn không có quyền truy cập trang này',
  'unauthorized.text':
    'Tài khoản của bạn không có vai trò mà trang này yêu cầu. Nếu bạn cho rằng đây là nhầm lẫn, hãy nhờ quản trị viên kiểm tra vai trò của bạn.',
  'notFound.title': 'Không tìm thấy trang',
  'notFound.text': 'Địa chỉ có thể bị gõ sai, hoặc trang đã được chuyển đi.',

  ...apikeyVi,
  ...gatewaysVi,
  ...usersVi,
  ...secondFactorVi,
  ...paymentsVi,
  ...messagingVi,
  ...chatVi,
  ...servicesOrdersVi,
  ...rentalVi,
  ...appVi,
  ...publicVi,
  ...signedInVi,
  ...outboxVi,
  ...errorCodesVi,
};
