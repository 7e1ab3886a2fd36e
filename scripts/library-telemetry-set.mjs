// Generates bench/library-telemetry.jsonl (issue 18): robot telemetry / log-line reports derived from public
// incident and failure write-ups (source per query), labelled with the entry they should retrieve or none
// (uncovered). Halves are by source: never tune on "heldout". Run: node scripts/library-telemetry-set.mjs > bench/library-telemetry.jsonl
// t(id, half, source, expected|null, symptom, object_class, force, env)
const rows = [];
let n = 0;
function t(half, source, expected, observed_symptom, object_class, force_applied, env) {
  n++;
  const q = { observed_symptom };
  if (object_class) q.object_class = object_class;
  if (force_applied) q.force_applied = force_applied;
  if (env) q.environmental_context = env;
  rows.push({ id: `t-${String(n).padStart(3, "0")}`, kind: expected ? "paraphrase" : "uncovered", half, source, query: q, expected: expected ? [expected] : [] });
}
const T = "tuning", H = "heldout";
// Humidity-swollen wood (FM-PHY-0002)
t(T, "https://gnhw.org/qa-items/summer-swelling/", "FM-PHY-0002", "pull_drawer: travel=1.5mm f_pull=10N->38N (ramp, no plateau) sound=none ambient_rh=82%", "dresser_drawer", "38 N pull", ["indoor", "bedroom", "summer"]);
t(T, "http://en.allexperts.com/q/Cabinets-Furniture-Woodworks-1468/2009/3/Dresser-drawers-stuck.htm", "FM-PHY-0002", "drawer.open FAILED disp=0.8mm f=45N force_profile=monotonic_rise roomHumidity=78%", "dresser_drawer", "45 N pull", ["indoor", "bedroom"]);
t(H, "https://thediyplan.com/why-are-your-wooden-drawers-sticky/", "FM-PHY-0002", "[drawer_ctrl] WARN open_timeout 4000ms pos_delta=2mm effort 12->40 N no_stop_event hygrometer=85%RH", "kitchen_drawer", "40 N pull", ["indoor", "kitchen", "wood"]);
t(H, "http://oldgallery.apartmenttherapy.com/making-sense-of-stuck-drawers-121564", "FM-PHY-0002", "joint_states drawer_slide=0.001 m; ft_x 8, 16, 24, 33 N; humidity=80 %; material=solid_pine", "chest_drawer", "33 N pull", ["indoor", "humid"]);
// Anti-tip interlock (FM-PHY-0005)
t(T, "https://www.officefurniture2go.com/answers/storage-filing/what-is-filing-cabinet-interlock-system.html", "FM-PHY-0005", "cabinet.drawer_2 pull travel=0mm f=25N; drawer_1 state=OPEN ext=300mm; drawer_2 last_open=OK t-10min", "filing_cabinet_drawer", "25 N pull", ["office", "metal-cabinet"]);
t(H, "https://www.findofficefurniture.com/answers/vertical-file-cabinets/vertical-file-cabinet-filing-drawer-load.html", "FM-PHY-0005", "open_drawer(id=3) -> ERR_NO_MOTION disp=0.0mm f=22N; drawer_1.ext=0.35m (same cabinet)", "filing_cabinet_drawer", "22 N pull", ["office"]);
// Internal latch (FM-PHY-0001)
t(T, "https://spectrum.ieee.org/050610-georgia-tech-robot-masters-art-of-opening-doors-and-drawers", "FM-PHY-0001", "grasp=OK pull=30N disp=0.0mm stiffness=rigid obstruction=none keyhole=none", "kitchen_drawer", "30 N pull", ["indoor", "kitchen"]);
t(H, "https://ar5iv.labs.arxiv.org/html/2402.17767", "FM-PHY-0001", "drawer_open.py cmd=0.25m meas=0mm F_x=30N at t=20ms (saturated) keyhole_detected=false", "cabinet_drawer", "30 N pull", ["indoor", "home"]);
// Air pressure differential (FM-PHY-0013)
t(T, "https://engineerfix.com/why-does-my-door-close-when-the-ac-turns-on/", "FM-PHY-0013", "door_open f_req=72N (nominal 20N); release -> door closed in 0.4 s; mic=whistle; hvac_fan=ON", "interior_door", "72 N pull", ["indoor", "hvac"]);
t(T, "https://www.adkinsductcleaning.com/why-bedroom-doors-slam-when-the-ac-turns-on", "FM-PHY-0013", "bedroomDoor openForce=65N closesOnRelease=true sound=hiss ac=on", "bedroom_door", "65 N pull", ["indoor"]);
t(H, "https://www.greenbuildingadvisor.com/question/new-very-tight-house-doors-hard-to-open-and-close", "FM-PHY-0013", "push_door F_peak=70N baseline=18N door_return=closed audio=whistling_air erv=running", "exterior_door", "70 N push", ["indoor"]);
// Seized corroded bolt (FM-PHY-0027)
t(T, "https://engineerfix.com/how-to-loosen-a-wrench-with-stuck-or-seized-fasteners/", "FM-PHY-0027", "nut_runner tq=38N·m angle=0.0deg; vision.thread_colour=orange_brown", "hex_bolt", "38 N·m torque", ["outdoor", "fence"]);
t(T, "https://mancavity.com/how-to-loosen-rusted-bolts", "FM-PHY-0027", "fastener_loosen FAILED tq=45Nm angle_delta=0 corrosion_detected=true", "bolt", "45 N·m torque", ["outdoor"]);
t(H, "https://homesteady.com/how-6570460-way-loosen-rusted-bolts.html", "FM-PHY-0027", "unscrew(bolt_m10) tq_max=40Nm angle=0° surface=oxidised install_age=5y", "bolt", "40 N·m torque", ["outdoor", "garden"]);
// Jar vacuum seal (FM-PHY-0020)
t(T, "https://lemonsandaisies.blogspot.com/2014/04/tips-to-open-tight-jar.html", "FM-PHY-0020", "twist_lid wrist_tq=4.1Nm lid_angle=0deg finger_slip=0 lid_centre_z=-1.5mm", "glass_jar", "4.1 N·m torque", ["kitchen"]);
t(T, "https://eatingmeals.com/how-do-you-release-a-vacuum-sealed-lid", "FM-PHY-0020", "open_jar ABORT torque_limit=4Nm angle=0.0 tactile_slip=false jar_state=new", "jar", "4 N·m torque", ["kitchen"]);
t(H, "https://www.efficientlifeskills.com/top-10-proven-methods-for-opening-stubborn-jars/", "FM-PHY-0020", "jar_open lid_rot=0° tq=3.8N·m gripper_slip=false lid_press_deflection=0mm", "jar", "3.8 N·m torque", ["kitchen", "pantry"]);
// Sugar-bonded lid threads (FM-PHY-0021)
t(H, "https://webcasty.com/2013/how-to-open-stuck-jar-lids/", "FM-PHY-0021", "lid_twist angle=0deg tq=3.5Nm; vision: crystals at thread; tactile=tacky; contents=honey", "honey_jar", "3.5 N·m torque", ["kitchen"]);
// Gas hob no flame (FM-PHY-0046)
t(T, "https://housedigest.com/1462491/fix-gas-stove-burner-wont-light-paperclip-hack", "FM-PHY-0046", "hob.ignite sound=click (continuous) flame_sensor=0 t=6s gas_odor_ppm=40", "gas_hob", null, ["kitchen"]);
t(T, "https://perfectforhome.com/why-is-my-gas-stove-clicking/", "FM-PHY-0046", "stove.light spark=clicking flame=false t=5000ms gas_odour=detected", "gas_stove", null, ["kitchen"]);
t(H, "https://engineerfix.com/why-your-gas-stove-keeps-clicking-and-how-to-fix-it", "FM-PHY-0046", "burner_2 igniter=clicking 8s thermocouple=22°C odour=gas", "gas_cooktop", null, ["kitchen"]);
// Kettle unseated or dry-boiled (FM-PHY-0044)
t(T, "https://mybudgetrecipes.com/heres-what-to-do-with-a-kettle-that-keeps-switching-off/", "FM-PHY-0044", "kettle switch ON->OFF 800ms water_temp=21°C at t=60s base_led=off", "electric_kettle", null, ["kitchen"]);
t(H, "https://eatsip365.com/troubleshooting-your-broken-electric-kettle", "FM-PHY-0044", "kettle power_state ON->OFF <1s temp_delta=0 60s base_indicator=0", "kettle", null, ["kitchen"]);
// Contaminated gripper pads (FM-PHY-0063)
t(T, "https://github.com/hsp-iit/project-ergocub/issues/39", "FM-PHY-0063", "pick(box) grip_force=20N slip=12mm lift mu_est=0.2 mu_baseline=0.6 box_surface=dry", "cardboard_box", "20 N grip", ["warehouse"]);
t(H, "https://github.com/bulletphysics/bullet3/issues/1936", "FM-PHY-0063", "lift ABORT object_slip_detected grasp_force=20N friction_est=0.25 (cal 0.6) pad_gloss=high", "box", "20 N grip", ["lab"]);
// Force-torque sensor drift (FM-PHY-0064)
t(T, "https://github.com/UniversalRobots/Universal_Robots_ROS_Driver/issues/617", "FM-PHY-0064", "/wrench force.z=3.6N gripper=empty arm=stationary bias +1.1N/60min", "ur10e_wrist_ft", null, ["lab"]);
t(T, "https://github.com/UniversalRobots/Universal_Robots_ROS2_Driver/issues/447", "FM-PHY-0064", "wrench_idle |F|=3.2N tool=none payload=0kg zero_ftsensor=never reading creeping", "ft_sensor", null, ["lab"]);
t(H, "https://github.com/UniversalRobots/Universal_Robots_ROS_Driver/issues/269", "FM-PHY-0064", "ft_sensor Fz=4N at rest contact=false gripper=empty offset drifting since power-on", "wrist_ft_sensor", null, ["lab"]);
t(H, "https://github.com/NASA-JSC-Robotics/valkyrie/issues/24", "FM-PHY-0064", "leftFootForceMag=60N in swing (contact=false), 30N earlier in run", "foot_load_cell", null, ["lab"]);
// Transparent object depth holes (FM-PHY-0065)
t(T, "https://github.com/cmower/ros_pybullet_interface/issues/133", "FM-PHY-0065", "depth=NaN in cup ROI; rgb_det=cup(0.93) material=glass; grasp_planner: 0 poses", "drinking_glass", null, ["kitchen", "table"]);
t(T, "https://github.com/microsoft/Azure-Kinect-Sensor-SDK/issues/1305", "FM-PHY-0065", "depth_image plate ROI invalid/sunken; rgb_det=plate(0.9) material=clear_plastic grasp_candidates=0", "clear_plastic_plate", null, ["lab"]);
t(H, "https://github.com/tue-robotics/tue_robocup/issues/505", "FM-PHY-0065", "pointcloud valid_pts=0 in glass ROI; rgb_det=glass ok; planner poses=0", "glass", null, ["kitchen"]);
// Sunlight IR interference (FM-PHY-0066)
t(T, "https://github.com/realsenseai/librealsense/issues/8364", "FM-PHY-0066", "depth_invalid_ratio=0.42 near window t=12:30; cloud noisy; night ratio=0.02", "d435i_camera", null, ["indoor", "window", "sunlight"]);
t(T, "https://github.com/JeremyBYU/polylidar-realsense/issues/4", "FM-PHY-0066", "rs_camera outdoor depth_fill=55% (indoor 98%) direct_sun=true", "depth_camera", null, ["outdoor"]);
t(H, "https://github.com/realsenseai/librealsense/issues/2875", "FM-PHY-0066", "D435 ir_exposure=saturated sunlight depth_holes=38%", "depth_camera", null, ["outdoor", "sunny"]);
t(H, "https://github.com/realsenseai/realsense-ros/issues/2318", "FM-PHY-0066", "ir_image washed_out t=12:00 depth_valid_pct 60 -> 20 sun_on_scene=true", "d455_camera", null, ["outdoor"]);
// Joint thermal derating (FM-PHY-0067)
t(T, "https://github.com/HULKs/hulk/issues/1826", "FM-PHY-0067", "speed_scaling=0.5 joint_4.motor_temp=79°C payload=90% rated 25min", "robot_arm", null, ["factory"]);
t(T, "https://github.com/Interbotix/interbotix_ros_manipulators/issues/10", "FM-PHY-0067", "servo_2 temp=72°C velocity_limit_active=true uptime=2h load=high", "wx250s_arm", null, ["lab"]);
t(H, "https://github.com/xArm-Developer/xArm-Python-SDK/issues/106", "FM-PHY-0067", "J4 temp=76 C speed_limit=50% payload near max 20min", "xarm_lite6", null, ["lab"]);
// Payload misconfigured (FM-PHY-0068)
t(T, "https://universal-robots.com/articles/ur/protective-stop-service-note", "FM-PHY-0068", "PROTECTIVE_STOP C153 free-space move ext_torque_est=6.2Nm contact=false tool_changed=today", "ur5e_arm", null, ["factory"]);
t(H, "https://tech-community.robotics.abb.com/t/irb660-runs-even-load-is-higher-than-limit/2878", "FM-PHY-0068", "Error 50204 Motion Supervision axis 3, no collision; tool=new_gripper loaddata=unchanged", "irb660_arm", null, ["factory"]);
// Porous surface vacuum loss (FM-PHY-0069)
t(T, "https://industrialairobots.com/cell-design/vacuum-vs-mechanical-grippers-for-bag-case-and-carton-handling/", "FM-PHY-0069", "vac_gripper vacuum=-18kPa target=-60kPa surface=corrugated_cardboard; box dropped lift=40mm", "cardboard_box", null, ["warehouse"]);
t(H, "https://fluidpowerjournal.com/a-vacuum-gripping-approach-to-box-palletizing", "FM-PHY-0069", "suction_level=25% setpoint surface=fabric; object released in lift; steel_plate test=OK", "fabric_parcel", null, ["warehouse"]);
// Wet floor wheel slip (FM-PHY-0051)
t(T, "https://github.com/UTRA-ART/Caffeine/issues/52", "FM-PHY-0051", "odom wheel=1.3m vo=0.7m floor_reflectance=high ekf=diverging", "mobile_base", null, ["indoor"]);
t(H, "https://github.com/tum-phoenix/drive_ros_localize_wheel_odometry/issues/2", "FM-PHY-0051", "encoder_dist=2.1m scan_match=1.2m floor=mopped", "mobile_base", null, ["indoor", "hallway"]);
// Emergency stop latched (FM-PHY-0062)
t(H, "https://www.universal-robots.com/manuals/EN/HTML/SW10_6/Content/prod-usr-man/software/PolyScopeX/psx-safety/psx-safety-robot-limits.htm", "FM-PHY-0062", "START ignored robot_state=EMERGENCY_STOPPED joint_vel=0 status_led=red", "robot_cell", null, ["factory"]);
// Tripped breaker (FM-PHY-0045)
t(H, "https://engineerfix.com/why-isnt-my-gas-stove-lighting", "FM-PHY-0045", "power_on display=off current=0.0A; toaster same circuit current=0.0A; smoke=none", "microwave_oven", null, ["kitchen"]);
// Stripped screw head (FM-PHY-0026)
t(T, "https://www.wonkeedonkeetools.co.uk/screwdriver-bits/glossary-screwdriver-bits", "FM-PHY-0026", "screwdriver cam_out x3 fastener_angle=0° bit_spin=true debris=metal", "phillips_screw", "2 N·m torque", ["workshop"]);
t(H, "https://engineerfix.com/why-do-screws-strip-so-easily/", "FM-PHY-0026", "drive_screw motor=spinning screw_rot=0deg tq 2.0->0.3Nm per slip; metal filings at head", "screw", null, ["workshop"]);
// Stripped hole / spinning nut (FM-PHY-0030)
t(T, "https://engineerfix.com/why-is-my-screw-just-rotating-and-not-coming-out/", "FM-PHY-0030", "unscrew angle=400° tq=0.4N·m axial=0mm", "wood_screw", "0.4 N·m torque", ["furniture"]);

// ---- uncovered (no entry describes them) ----
t(T, "https://beltmanagement.com/troubleshoot-conveyor-belt/conveyor-belt-running-one-side/", null, "conveyor_1: belt edge offset +35 mm to the left at the tail pulley; edge wear; spillage; motor current 4.2 A nominal", "belt_conveyor", null, ["factory"]);
t(T, "https://afconline.zendesk.com/hc/en-us/articles/204679639-Why-won-t-my-belt-track-", null, "conveyor: belt creeps right when the load is off-centre; edge rubbing the guard; sound: scraping", "belt_conveyor", null, ["warehouse"]);
t(H, "https://www.conveyoroller.com/new/Conveyor-belt-runs-to-one-side.html", null, "belt_tracking sensor: lateral drift 28 mm/min to one side; material build-up on idlers; frame level OK", "belt_conveyor", null, ["plant"]);
t(H, "https://www.fabrico.io/tr/blog/conveyor-belt-tracking-problems/", null, "tracking alarm: belt runs off the head pulley; drive trips on thermal overload; idler skewed 2°", "belt_conveyor", null, ["plant"]);
t(T, "https://github.com/iNavFlight/inav/issues/6098", null, "blackbox: motor3 cmd 100% for 180 ms while roll rate -900 dps; quad fell right after a punch-out; vbat 15.8 V", "quadcopter", null, ["outdoor", "flight"]);
t(T, "https://github.com/betaflight/betaflight/issues/513", null, "quad loses control on fast stick input, crash always back-right; min_throttle lowered; ESC BLHeli 14.5", "quadcopter", null, ["outdoor"]);
t(H, "https://github.com/betaflight/betaflight/issues/3960", null, "flight log: motor_3 output pinned at 100% during throttle punch, vehicle flips; ESC desync suspected", "drone", null, ["outdoor"]);
t(H, "https://github.com/AlkaMotors/AM32-MultiRotor-ESC-firmware/issues/149", null, "ESC telemetry: motor 2 rpm drops to 0 for 40 ms at full throttle then resumes; current spike 35 A", "drone_esc", null, ["outdoor"]);
t(T, "https://github.com/ouster-lidar/ouster-ros/issues/272", null, "os_cloud: 40% of points missing in sector 90-180 deg; input_voltage_mv=1151, input_current_ma=1759; gigabit switch", "lidar", null, ["vehicle"]);
t(T, "https://github.com/ouster-lidar/ouster-sdk/issues/387", null, "lidar: points missing around retro-reflective tape on the wall; returns saturated near the stripes", "lidar", null, ["indoor"]);
t(H, "https://github.com/ouster-lidar/ouster-ros/issues/75", null, "lidar packets dropped 12/64 per frame; incomplete point clouds; network overloaded", "lidar", null, ["vehicle"]);
t(H, "https://github.com/unitreerobotics/unilidar_sdk2/issues/26", null, "pointcloud shows streaks and partial coverage; scan incomplete each frame", "lidar", null, ["indoor"]);
t(T, "https://github.com/ROBOTIS-GIT/DynamixelSDK/issues/539", null, "servo ID 4: hardware_error_status=OVERLOAD, LED blinking red, torque off; goal position not reached; no load attached", "dynamixel_servo", null, ["lab"]);
t(T, "https://github.com/ROBOTIS-GIT/open_manipulator/issues/101", null, "shoulder and elbow servos OL error when jogging the arm downward fast with keyboard teleop", "open_manipulator_arm", null, ["lab"]);
t(H, "https://github.com/ROBOTIS-GIT/dynamixel-workbench/issues/382", null, "XM430 motor 6 overload error comes back after reboot; servo horn screw rubbing the case", "robot_arm", null, ["lab"]);
t(H, "https://github.com/Interbotix/interbotix_ros_arms/issues/26", null, "gripper trajectory server preempted: max effort reached; gripper servo LED blinking red, re-grasp refused", "px150_gripper", null, ["lab"]);
t(T, "https://www.aboutdarwin.com/?p=34428", null, "kettle keeps boiling 4 min past 100°C, no auto shut-off; steam vent tube scaled", "electric_kettle", null, ["kitchen"]);
t(H, "https://engineerfix.com/why-is-my-gas-stove-igniter-not-clicking", null, "burner knob turned to ignite: no click, no spark; the other burners click normally", "gas_stove", null, ["kitchen"]);
t(H, "https://www.packagingdigest.com/automation/the-case-of-the-slippery-suckers", null, "cartoner: carton slips out of position every 2 min; suction cup lip feathered and nicked; carton stock smooth", "carton", null, ["packaging line"]);
t(H, "https://github.com/robotology/mesh-support/issues/2072", null, "torso_roll: overheating fault as soon as powered on, raw temperature -886, motor turned off; joint cold to the touch", "humanoid_joint", null, ["lab"]);
process.stdout.write(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
