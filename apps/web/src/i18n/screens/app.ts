/**
 * Texts of the shared UI kit (state views, notifications, row actions, statuses, the shell's "Soon"
 * marks), the admin overview, onboarding and the landing page's price list. en.ts / vi.ts spread these in.
 */
export const appEn = {
  // Failure, empty and offline states (components/StateViews.tsx, lib/errors.ts).
  'errors.network': 'No connection to the server. Check your connection and try again.',
  'errors.offline': 'You are offline. The page updates again when the connection is back.',
  'errors.server': 'The server had a problem answering. Try again in a moment.',
  'errors.timeout': 'The server took too long to answer. Try again in a moment.',
  'errors.forbidden': 'Your account is not allowed to see this.',
  'errors.notFound': 'Not found.',
  'errors.retrying': 'Trying again…',
  'state.offlineBanner': 'You are offline. What you see may be out of date.',
  'state.backOnline': 'Back online.',
  'state.scrollHint': 'Scroll sideways to see more',
  'state.moreActions': 'More actions',
  'state.actionsFor': 'Actions for {name}',

  // Order statuses (one friendly name per status, in badges and filters).
  'status.order.WAIT_CODE': 'Waiting for code',
  'status.order.SUCCESS': 'Code received',
  'status.order.CANCEL': 'Cancelled',
  'status.unknown': 'Unknown ({status})',

  // Notifications (bell, toasts, tab title).
  'notify.unread': '{count} unread',
  'notify.markAllRead': 'Mark All as Read',
  'notify.clear': 'Clear',
  'notify.codeTitle': 'Code {code} for {service}',
  'notify.codeBody': 'Number {phone}',
  'notify.copyCode': 'Copy Code',
  'notify.tabTitle': '({count}) New code {code}',
  'notify.liveOn': 'Live: codes appear the moment they arrive.',
  'notify.liveConnecting': 'Connecting to live updates…',
  'notify.liveDown': 'Live updates are paused: no connection to the server. Checking every 5 s instead.',
  'notify.liveOff': 'Live updates off',
  'notify.liveConnectingShort': 'Connecting…',

  // Sidebar.
  'nav.soon': 'Soon',
  'nav.soonLabel': '{label} (coming soon)',
  'nav.overview': 'Overview',

  // Onboarding.
  'onboarding.title': 'Top up to rent your first number',
  'onboarding.text':
    'Your balance is $0.00. Add funds with a USDT invoice, then pick a service below: the code shows here seconds after the SMS arrives.',
  'onboarding.action': 'Top Up',
  'onboarding.prices': 'See Prices',

  // Admin overview (/admin).
  'overview.title': 'Overview',
  'overview.subtitle': 'The platform at a glance: accounts, money held, devices and today’s rentals.',
  'overview.users': 'Users',
  'overview.usersHint': 'Registered accounts',
  'overview.balance': 'Balance held',
  'overview.balanceHint': 'Sum of all user balances',
  'overview.gateways': 'Gateways online',
  'overview.gatewaysHint': '{online} of {total} reporting in the last 3 min',
  'overview.sims': 'SIMs',
  'overview.simsHint': '{usable} of {total} usable',
  'overview.orders': 'Orders today',
  'overview.ordersHint': '{success} with a code · {waiting} waiting now',
  'overview.unmatched': 'Unmatched SMS',
  'overview.unmatchedHint': 'Last 24 h, matched no rental',
  'overview.loadFailed': 'The overview could not be loaded',
  'overview.shortcuts': 'Shortcuts',
  'overview.openOrders': 'Open Order Manager',
  'overview.openGateways': 'Open Gateway Manager',
  'overview.openServices': 'Open Service Manager',
  'overview.openDashboard': 'Rent a Number',

  // Landing page: the live price list.
  'landing.priceListTitle': 'Current prices',
  'landing.priceListText': 'Live from the service list. You pay only when you rent.',
  'landing.priceListEmpty': 'No services are offered right now.',
  'landing.priceListFailed': 'The price list could not be loaded',
  'landing.colService': 'Service',
  'landing.colPrice': 'Price',
  'landing.colAvailable': 'Available',
} as const;

export const appVi: Record<keyof typeof appEn, string> = {
  'errors.network': 'Không kết nối được tới máy chủ. Hãy kiểm tra kết nối và thử lại.',
  'errors.offline': 'Bạn đang ngoại tuyến. Trang sẽ cập nhật lại khi có kết nối.',
  'errors.server': 'Máy chủ gặp sự cố khi trả lời. Vui lòng thử lại sau giây lát.',
  'errors.timeout': 'Máy chủ trả lời quá lâu. Vui lòng thử lại sau giây lát.',
  'errors.forbidden': 'Tài khoản của bạn không được phép xem nội dung này.',
  'errors.notFound': 'Không tìm thấy.',
  'errors.retrying': 'Đang thử lại…',
  'state.offlineBanner': 'Bạn đang ngoại tuyến. Dữ liệu hiển thị có thể đã cũ.',
  'state.backOnline': 'Đã có kết nối trở lại.',
  'state.scrollHint': 'Vuốt ngang để xem thêm',
  'state.moreActions': 'Thao tác khác',
  'state.actionsFor': 'Thao tác cho {name}',

  'status.order.WAIT_CODE': 'Đang chờ mã',
  'status.order.SUCCESS': 'Đã nhận mã',
  'status.order.CANCEL': 'Đã hủy',
  'status.unknown': 'Không rõ ({status})',

  'notify.unread': '{count} chưa đọc',
  'notify.markAllRead': 'Đánh dấu đã đọc tất cả',
  'notify.clear': 'Xóa',
  'notify.codeTitle': 'Mã {code} cho {service}',
  'notify.codeBody': 'Số {phone}',
  'notify.copyCode': 'Sao chép mã',
  'notify.tabTitle': '({count}) Mã mới {code}',
  'notify.liveOn': 'Trực tiếp: mã hiện ngay khi đến.',
  'notify.liveConnecting': 'Đang kết nối cập nhật trực tiếp…',
  'notify.liveDown': 'Cập nhật trực tiếp tạm dừng: không kết nối được máy chủ. Đang kiểm tra mỗi 5 giây.',
  'notify.liveOff': 'Mất cập nhật trực tiếp',
  'notify.liveConnectingShort': 'Đang kết nối…',

  'nav.soon': 'Sắp có',
  'nav.soonLabel': '{label} (sắp có)',
  'nav.overview': 'Tổng quan',

  'onboarding.title': 'Nạp tiền để thuê số đầu tiên',
  'onboarding.text':
    'Số dư của bạn là $0.00. Nạp tiền bằng hóa đơn USDT, rồi chọn một dịch vụ bên dưới: mã sẽ hiện ở đây vài giây sau khi SMS đến.',
  'onboarding.action': 'Nạp tiền',
  'onboarding.prices': 'Xem giá',

  'overview.title': 'Tổng quan',
  'overview.subtitle': 'Toàn cảnh hệ thống: tài khoản, số dư đang giữ, thiết bị và lượt thuê hôm nay.',
  'overview.users': 'Người dùng',
  'overview.usersHint': 'Tài khoản đã đăng ký',
  'overview.balance': 'Số dư đang giữ',
  'overview.balanceHint': 'Tổng số dư của mọi người dùng',
  'overview.gateways': 'Gateway trực tuyến',
  'overview.gatewaysHint': '{online}/{total} báo cáo trong 3 phút qua',
  'overview.sims': 'SIM',
  'overview.simsHint': '{usable}/{total} dùng được',
  'overview.orders': 'Đơn hôm nay',
  'overview.ordersHint': '{success} có mã · {waiting} đang chờ',
  'overview.unmatched': 'SMS không khớp',
  'overview.unmatchedHint': '24 giờ qua, không khớp đơn thuê nào',
  'overview.loadFailed': 'Không tải được trang tổng quan',
  'overview.shortcuts': 'Lối tắt',
  'overview.openOrders': 'Mở Quản lý đơn hàng',
  'overview.openGateways': 'Mở Quản lý gateway',
  'overview.openServices': 'Mở Quản lý dịch vụ',
  'overview.openDashboard': 'Thuê số',

  'landing.priceListTitle': 'Giá hiện tại',
  'landing.priceListText': 'Cập nhật trực tiếp từ danh sách dịch vụ. Bạn chỉ trả tiền khi thuê.',
  'landing.priceListEmpty': 'Hiện chưa có dịch vụ nào.',
  'landing.priceListFailed': 'Không tải được bảng giá',
  'landing.colService': 'Dịch vụ',
  'landing.colPrice': 'Giá',
  'landing.colAvailable': 'Còn sẵn',
};
